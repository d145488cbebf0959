import type { HistoryAnswer } from '@hearth/contracts';
import { yieldToEventLoop } from '../storage/batches.js';

/** Points encoded at a time: a ms or two of the server's thread. */
const POINTS_PER_SLICE = 2000;

/**
 * An answer as the UTF-8 bytes of the JSON text `JSON.stringify` gives, its points encoded a slice
 * at a time with a turn of the event loop between slices: 20 000 points are some 560 KB, which in
 * one go held every other request back for tens of ms (the text, and then its bytes for the socket).
 */
export async function encodeAnswer(answer: HistoryAnswer): Promise<Buffer> {
  const { points, ...rest } = answer;
  const parts = [Buffer.from(`${JSON.stringify(rest).slice(0, -1)},"points":[`)];
  for (let start = 0; start < points.length; start += POINTS_PER_SLICE) {
    if (start > 0) await yieldToEventLoop();
    const slice = JSON.stringify(points.slice(start, start + POINTS_PER_SLICE)).slice(1, -1);
    parts.push(Buffer.from(start > 0 ? `,${slice}` : slice));
  }
  parts.push(Buffer.from(']}'));
  return Buffer.concat(parts);
}
