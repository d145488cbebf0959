/**
 * Polls `probe` every `intervalMs` until it gives something other than undefined or false, and
 * resolves with that; throws "condition not met in time" after `timeoutMs`. The one way tests
 * wait for something asynchronous (a message on the bus, a row written, a port open).
 */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 5000,
  intervalMs = 50,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * waitFor for a value read again (every 200 ms) until `check` accepts it; its error shows the last
 * value read, which tells a failing browser test what the page or the API had instead.
 */
export async function eventually<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  let last: T | undefined;
  try {
    return await waitFor(
      async () => {
        last = await read();
        return check(last) ? { value: last } : undefined;
      },
      timeoutMs,
      200,
    ).then(({ value }) => value);
  } catch (error) {
    if (error instanceof Error && error.message === 'condition not met in time') {
      throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(last)}`);
    }
    throw error;
  }
}
