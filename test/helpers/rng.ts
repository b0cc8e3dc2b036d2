/** A seeded random source: a run is replayed from one number. */
export interface Rng {
  /** In [0, 1). */
  next(): number;
  /** An integer in [min, max). */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  /** A fresh 31-bit seed (for fast-check or a child source). */
  seed(): number;
}

/** mulberry32: small, fast and good enough for test choices. */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min)),
    pick: (items) => items[Math.floor(next() * items.length)],
    chance: (p) => next() < p,
    seed: () => Math.floor(next() * 2 ** 31),
  };
}
