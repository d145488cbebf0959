/**
 * Large writes go in chunks with a turn of the event loop between them: better-sqlite3 runs each
 * statement synchronously, so one long batch would hold back every device-stream message behind it.
 */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}
