/** docs/api.md / docs/strings.md#constants-and-limits: every HTTP call gives up after 15000 ms. */
export const REQUEST_TIMEOUT_MS = 15_000;

export class TimeoutError extends Error {
  override name = 'TimeoutError';
  constructor() {
    super('Request timed out');
  }
}

/** fetch() with the 15 s time-out of docs/strings.md#constants-and-limits (AbortController). */
export async function fetchWithTimeout(
  input: string | URL,
  init: RequestInit,
  timeoutMs = REQUEST_TIMEOUT_MS,
): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new TimeoutError()), timeoutMs);
  try {
    return await fetch(input, { ...init, signal: controller.signal });
  } catch (error) {
    if (controller.signal.aborted) throw new TimeoutError();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

export async function readJson(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text().catch(() => '');
  if (!text) return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === 'object' && parsed !== null
      ? (parsed as Record<string, unknown>)
      : { value: parsed };
  } catch {
    return { message: text.slice(0, 200) };
  }
}
