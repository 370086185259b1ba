// One layer of the general cookie table (lastbite::games::cookie::gpu): every reduced
// position with n components, in lexicographic rank order, its values packed in a word
// (nim-value, remoteness, suspense, duration: a byte each, 0xff for no duration) from its
// reduced options' values in layers n - 1 and n - 2, exactly as the CPU's `fill` lists
// the options (`for_each_option`) and `engine::impartial::combine` combines them.

struct Params {
    n: u32,     // components
    size: u32,  // reduced positions with n components
    row: u32,   // invocations in one row of the dispatch grid
    pad: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// suf[(m * 34 + k) * 34 + v]: completions a_k..a_m of a reduced position with m
// components whose a_k >= v (the CPU's `suffix(m)[k][v]`).
@group(0) @binding(1) var<storage, read> suf: array<u32>;
@group(0) @binding(2) var<storage, read> one: array<u32>;   // layer n - 1
@group(0) @binding(3) var<storage, read> two: array<u32>;   // layer n - 2
@group(0) @binding(4) var<storage, read_write> cur: array<u32>;
// Set to n when an option's nim-value is 31 or more (the mex mask's width).
@group(0) @binding(5) var<storage, read_write> overflow: atomic<u32>;

fn s(m: u32, k: u32, v: u32) -> u32 {
    return suf[(m * 34u + k) * 34u + v];
}

const NONE: u32 = 255u;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let r0 = id.y * params.row + id.x;
    if (r0 >= params.size) {
        return;
    }
    let n = params.n;
    // The components of the position of rank r0.
    var a: array<u32, 34>;
    var r = r0;
    var prev = 0u;
    for (var k = 1u; k <= n; k = k + 1u) {
        var x = max(prev, k);
        loop {
            var exact = s(n, k, x);
            if (x < n) {
                exact = exact - s(n, k, x + 1u);
            }
            if (r < exact || x == n) {
                break;
            }
            r = r - exact;
            x = x + 1u;
        }
        a[k - 1u] = x;
        prev = x;
    }
    // Each distinct option's packed values.
    var vals: array<u32, 34>;
    var count = 0u;
    var tight = false;
    var b: array<u32, 34>;
    for (var k = 0u; k < n; k = k + 1u) {
        if (k > 0u) {
            if (a[k - 1u] == k) {
                tight = true;
            }
            if (a[k] == a[k - 1u]) {
                continue;
            }
        }
        var m = 0u;
        for (var j = 0u; j < n; j = j + 1u) {
            if (j != k) {
                b[m] = a[j] - 1u;
                m = m + 1u;
            }
        }
        if (tight) {
            // The surplus is 1: delete the smallest, deplete to n - 2.
            for (var j = 0u; j + 2u < n; j = j + 1u) {
                b[j] = min(b[j + 1u], n - 2u);
            }
            m = n - 2u;
        }
        // The option's rank among the reduced positions with m components.
        var rank = 0u;
        var p = 0u;
        for (var i = 0u; i < m; i = i + 1u) {
            rank = rank + s(m, i + 1u, p) - s(m, i + 1u, b[i]);
            p = b[i];
        }
        if (m + 1u == n) {
            vals[count] = one[rank];
        } else {
            vals[count] = two[rank];
        }
        count = count + 1u;
    }
    // combine: the mex, remoteness and suspense, and the strategic duration.
    var seen = 0u;
    var winning = false;
    var any_even = false;
    var all_known = true;
    for (var i = 0u; i < count; i = i + 1u) {
        let g = vals[i] & 255u;
        if (g >= 31u) {
            atomicMax(&overflow, n);
        } else {
            seen = seen | (1u << g);
        }
        if (g == 0u) {
            winning = true;
        }
        let d = vals[i] >> 24u;
        if (d == NONE) {
            all_known = false;
        } else if ((d & 1u) == 0u) {
            any_even = true;
        }
    }
    let grundy = countTrailingZeros(~seen);
    var remoteness = 0u;
    var suspense = 0u;
    if (winning) {
        // The nearest even remoteness; the farthest even suspense.
        var best_r = 0xffffffffu;
        var best_s = 0u;
        for (var i = 0u; i < count; i = i + 1u) {
            let rem = (vals[i] >> 8u) & 255u;
            let sus = (vals[i] >> 16u) & 255u;
            if ((rem & 1u) == 0u) {
                best_r = min(best_r, rem);
            }
            if ((sus & 1u) == 0u) {
                best_s = max(best_s, sus);
            }
        }
        remoteness = best_r + 1u;
        suspense = best_s + 1u;
    } else {
        var best_r = 0u;
        var best_s = 0xffffffffu;
        for (var i = 0u; i < count; i = i + 1u) {
            best_r = max(best_r, (vals[i] >> 8u) & 255u);
            best_s = min(best_s, (vals[i] >> 16u) & 255u);
        }
        remoteness = best_r + 1u;
        suspense = best_s + 1u;
    }
    // The relevant options: the even-duration ones if any, else all. The duration is one
    // more than a value they all share, when every option has one.
    var duration = NONE;
    var first = NONE;
    var found = false;
    var agree = true;
    for (var i = 0u; i < count; i = i + 1u) {
        let d = vals[i] >> 24u;
        let relevant = !any_even || (d != NONE && (d & 1u) == 0u);
        if (relevant) {
            if (!found) {
                found = true;
                first = d;
            } else if (d != first) {
                agree = false;
            }
        }
    }
    if (all_known && found && first != NONE && agree) {
        duration = first + 1u;
    }
    cur[r0] = grundy | (remoteness << 8u) | (suspense << 16u) | (duration << 24u);
}
