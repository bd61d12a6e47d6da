/**
 * Deterministic randomness addressed by name: the same seed and keys always give the same number, in any order
 * of evaluation. This is what makes the world replayable without storing a generator's state.
 */
export function hash32(seed: number, keys: readonly (string | number)[]): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (const key of keys) {
    const text = String(key);
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    h ^= 0x2f;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  // murmur3 finaliser: spreads the last bytes over all 32 bits
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

/** Uniform in [0, 1). */
export const uniform = (seed: number, ...keys: (string | number)[]): number => hash32(seed, keys) / 2 ** 32;

/** Standard normal (Box-Muller over two named uniforms). */
export function gaussian(seed: number, ...keys: (string | number)[]): number {
  const u1 = Math.max(uniform(seed, ...keys, 'u1'), 1e-12);
  const u2 = uniform(seed, ...keys, 'u2');
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

/** A UUID-shaped id derived from keys, so world-made ids replay identically. */
export function derivedUuid(seed: number, ...keys: (string | number)[]): string {
  const hex = [0, 1, 2, 3]
    .map((i) =>
      hash32(seed, [...keys, 'uuid', i])
        .toString(16)
        .padStart(8, '0'),
    )
    .join('');
  const variant = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
