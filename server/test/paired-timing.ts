/** The middle value (the upper one of an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/**
 * Runs `a` and `b` `count` times as pairs, each pair in turn first (a pair's first call waits
 * longer on a busy machine), and returns the pairs as [a, b]. Compare "about the same time" pair
 * by pair (the median of the differences): the load of the moment falls on both calls of a pair
 * alike, where two medians, each taken at other moments, can be far apart under a full suite.
 */
export async function inPairs<T>(
  count: number,
  a: (i: number) => Promise<T>,
  b: (i: number) => Promise<T>,
): Promise<[T, T][]> {
  const pairs: [T, T][] = [];
  for (let i = 0; i < count; i++) {
    if (i % 2 === 0) {
      const first = await a(i);
      pairs.push([first, await b(i)]);
    } else {
      const first = await b(i);
      pairs.push([await a(i), first]);
    }
  }
  return pairs;
}
