import type { HistoryAnswer, HistoryPoint } from '@hearth/contracts';
import type { Pause } from './history.pace.js';

/** Points encoded at a time when an answer's points are all at hand: a ms or two of the server's thread. */
const POINTS_PER_SLICE = 2000;

/** Points already at hand, a slice at a time with a pause between slices. */
export async function* slicesOf(
  points: readonly HistoryPoint[],
  pause: Pause,
): AsyncGenerator<readonly HistoryPoint[]> {
  for (let start = 0; start < points.length; start += POINTS_PER_SLICE) {
    if (start > 0) await pause();
    yield points.slice(start, start + POINTS_PER_SLICE);
  }
}

/**
 * An answer as the UTF-8 bytes of the JSON text `JSON.stringify` gives, its points encoded as
 * they come, a page at a time: 20 000 points are some 560 KB, which in one go held every other
 * request back for tens of ms (the text, and then its bytes for the socket), and a chart's points
 * kept as objects until the end outlived V8's young generation (a major collection's pause).
 */
export async function encodeAnswer(
  head: Omit<HistoryAnswer, 'points'>,
  pages: AsyncIterable<readonly HistoryPoint[]>,
): Promise<Buffer> {
  const parts = [Buffer.from(`${JSON.stringify(head).slice(0, -1)},"points":[`)];
  let first = true;
  for await (const page of pages) {
    if (page.length === 0) continue;
    const text = JSON.stringify(page).slice(1, -1);
    parts.push(Buffer.from(first ? text : `,${text}`));
    first = false;
  }
  parts.push(Buffer.from(']}'));
  return Buffer.concat(parts);
}
