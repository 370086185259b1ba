// Exact fractions for display, and player letters.

// Exact fractions for display sums (utilities may be like 7/3).
export function gcd(a, b) { a = a < 0n ? -a : a; b = b < 0n ? -b : b; while (b) { [a, b] = [b, a % b]; } return a; }
export function frac(x) {
  const s = String(x);
  if (s.includes("/")) { const [n, d] = s.split("/"); return norm(BigInt(n), BigInt(d)); }
  if (s.includes(".")) { const [i, f] = s.split("."); const d = 10n ** BigInt(f.length); return norm(BigInt(i + f), d); }
  return [BigInt(s), 1n];
}
export function norm(n, d) { if (d < 0n) { n = -n; d = -d; } const g = gcd(n, d) || 1n; return [n / g, d / g]; }
export function add(a, b) { return norm(a[0] * b[1] + b[0] * a[1], a[1] * b[1]); }
export function show(f) { return f[1] === 1n ? String(f[0]) : `${f[0]}/${f[1]}`; }

export const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
