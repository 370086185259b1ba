// One layer of the cookie game's strict nim table (lastbite::games::cookie::gpu): the
// nim-values of the 2^(n-1) strict positions with n components, each the mex of its
// reduced options' values, read from layers n - 1 and n - 2, exactly as
// `StrictCode::for_each_option` lists the options. Values are 4 bits, eight to a word
// (the CPU's 4-bit layout); each invocation fills one word.

struct Params {
    n: u32,          // components
    positions: u32,  // 2^(n-1) strict positions (masks 0 .. positions - 1)
    row: u32,        // invocations in one row of the dispatch grid
    pad: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> one: array<u32>;   // layer n - 1
@group(0) @binding(2) var<storage, read> two: array<u32>;   // layer n - 2
@group(0) @binding(3) var<storage, read_write> cur: array<u32>;
// Set to n when a value does not fit 4 bits.
@group(0) @binding(4) var<storage, read_write> overflow: atomic<u32>;

fn value(layer_n: u32, mask: u32) -> u32 {
    if (layer_n + 1u == params.n) {
        return (one[mask >> 3u] >> ((mask & 7u) * 4u)) & 15u;
    }
    return (two[mask >> 3u] >> ((mask & 7u) * 4u)) & 15u;
}

// The reduced option after eating a component and counting a day down: the code shifts
// right by one; when a 1 expires, deletion drops it and depletion caps the rest at n - 2.
fn shrunk(mask: u32, m: u32) -> u32 {
    let n = params.n;
    if ((mask & 1u) == 1u) {
        var bits = 0u;
        if (n >= 3u) {
            bits = n - 3u;
        }
        return value(n - 2u, (m >> 1u) & ((1u << bits) - 1u));
    }
    return value(n - 1u, m >> 1u);
}

fn nim(mask: u32) -> u32 {
    let n = params.n;
    var seen = 0u;
    var rest = mask;
    while (rest != 0u) {
        let bit = rest & (~rest + 1u);
        rest = rest ^ bit;
        if (bit == 1u) {
            seen = seen | (1u << value(n - 1u, (mask ^ 1u) >> 1u));
        } else {
            seen = seen | (1u << shrunk(mask, mask ^ bit));
        }
    }
    if (n > 0u) {
        seen = seen | (1u << shrunk(mask, mask));
    }
    return countTrailingZeros(~seen);
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let g = id.y * params.row + id.x;
    let first = g * 8u;
    if (first >= params.positions) {
        return;
    }
    var word = 0u;
    for (var t = 0u; t < 8u; t = t + 1u) {
        let mask = first + t;
        if (mask < params.positions) {
            var v = nim(mask);
            if (v > 15u) {
                atomicMax(&overflow, params.n);
                v = 15u;
            }
            word = word | (v << (4u * t));
        }
    }
    cur[g] = word;
}
