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
