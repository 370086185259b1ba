// One layer of a plain dinner's lean solve (lastbite::games::dinner::gpu): the states
// with `layer` morsels left, in colexicographic rank order, each decided from the
// previous layer's payoff vectors exactly as the CPU engine decides (`evaluate`): moves
// in increasing morsel order, the mover's own payoff first, then the mover's tie rule.
// Each invocation decides four consecutive ranks and writes their four choice bytes as
// one word.

struct Params {
    n: u32,      // morsels
    k: u32,      // players
    layer: u32,  // morsels left
    size: u32,   // states in this layer
    mover: u32,  // the player to move (turn n - layer)
    rule: u32,   // the mover's tie rule: 0 first, 1 last, 2 friendly, 3 antagonistic
    row: u32,    // invocations in one row of the dispatch grid
    pad: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// binom[a * 33 + b] = C(a, b) for a, b <= 32.
@group(0) @binding(1) var<storage, read> binom: array<u32>;
// pay[i * k + p]: what player p gains by eating morsel i (scaled, tie offsets included).
@group(0) @binding(2) var<storage, read> pay: array<i32>;
@group(0) @binding(3) var<storage, read> prev: array<i32>;
@group(0) @binding(4) var<storage, read_write> cur: array<i32>;
@group(0) @binding(5) var<storage, read_write> picks: array<u32>;

fn choose(a: u32, b: u32) -> u32 {
    if (b > a) {
        return 0u;
    }
    return binom[a * 33u + b];
}

// The subset of rank `rank` among the `layer`-subsets of 0..n, colexicographic.
fn unrank(layer: u32, rank: u32) -> u32 {
    var r = rank;
    var mask = 0u;
    var top = params.n;
    var j = layer;
    while (j >= 1u) {
        var p = top;
        while (p > 0u && choose(p - 1u, j) > r) {
            p = p - 1u;
        }
        if (p > 0u) {
            p = p - 1u;
        }
        p = max(p, j - 1u);
        mask = mask | (1u << p);
        r = r - choose(p, j);
        top = p;
        j = j - 1u;
    }
    return mask;
}

// The next subset of as many elements in colexicographic order (Gosper's hack).
fn next_subset(x: u32) -> u32 {
    if (x == 0u) {
        return 0u;
    }
    let c = x & (~x + 1u);
    let r = x + c;
    return (((r ^ x) >> 2u) / c) | r;
}

// Decides the state `mask` of rank `rank`; returns its choice (255: terminal).
fn decide(mask: u32, rank: u32) -> u32 {
    let k = params.k;
    let out = rank * k;
    if (params.layer == 0u) {
        for (var q = 0u; q < k; q = q + 1u) {
            cur[out + q] = 0;
        }
        return 255u;
    }
    let mover = params.mover;
    // The positions of the morsels left and, for each, the suffix of the child's rank:
    // removing the j-th smallest element p_j leaves rank
    // sum_{i<j} C(p_i, i + 1) + sum_{i>j} C(p_i, i).
    var pos: array<u32, 32>;
    var suffix: array<u32, 32>;
    var m = mask;
    var count = 0u;
    while (m != 0u) {
        pos[count] = countTrailingZeros(m);
        m = m & (m - 1u);
        count = count + 1u;
    }
    var s = 0u;
    var j = count;
    while (j > 0u) {
        j = j - 1u;
        suffix[j] = s;
        s = s + choose(pos[j], j);
    }
    var prefix = 0u;
    var best = 0u;
    var best_child = 0u;
    var best_own = 0;
    var best_others = 0;
    for (var i = 0u; i < count; i = i + 1u) {
        let child = prefix + suffix[i];
        prefix = prefix + choose(pos[i], i + 1u);
        let base = child * k;
        let own = prev[base + mover] + pay[pos[i] * k + mover];
        var others = 0;
        for (var q = 0u; q < k; q = q + 1u) {
            if (q != mover) {
                others = others + prev[base + q];
            }
        }
        var take = i == 0u;
        if (!take) {
            if (own > best_own) {
                take = true;
            } else if (own == best_own) {
                if (params.rule == 1u) {
                    take = true;
                } else if (params.rule == 2u) {
                    take = others > best_others;
                } else if (params.rule == 3u) {
                    take = others < best_others;
                }
            }
        }
        if (take) {
            best = i;
            best_child = child;
            best_own = own;
            best_others = others;
        }
    }
    for (var q = 0u; q < k; q = q + 1u) {
        cur[out + q] = prev[best_child * k + q];
    }
    cur[out + mover] = best_own;
    return best;
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let g = id.y * params.row + id.x;
    let first = g * 4u;
    if (first >= params.size) {
        return;
    }
    var mask = unrank(params.layer, first);
    var word = 0u;
    for (var t = 0u; t < 4u; t = t + 1u) {
        let rank = first + t;
        var pick = 255u;
        if (rank < params.size) {
            if (t > 0u) {
                mask = next_subset(mask);
            }
            pick = decide(mask, rank);
        }
        word = word | (pick << (8u * t));
    }
    picks[g] = word;
}
