// Helpers of the randomized model tests: a seeded generator, so a failure reproduces, and an assertion cheap enough
// for their hot loops.

/** Deterministic PRNG (mulberry32): `rng(seed)(n)` is an integer in [0, n). */
export function rng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n: number): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

/** A cheap assertion for hot loops, where thousands of expect() calls would dominate the run time. */
export function check(condition: boolean, message: () => string): void {
  if (!condition) throw new Error(message());
}
