import { vi } from 'vitest';

/** One request the app made, as a component test reads it. */
export interface FetchCall {
  method: string;
  path: string;
  body: unknown;
  /** The whole address (for query strings). Not enumerable, so `toEqual({ method, path, body })` still holds. */
  readonly url: URL;
}

export interface FetchReply {
  status?: number;
  body?: unknown;
}

/**
 * Replaces `fetch` for a component test: records every call (in order) and answers with what `answer` gives
 * (status 200 by default, JSON body, none for 204). Undo with `vi.unstubAllGlobals()` in `afterEach`.
 */
export function stubFetch(answer: (call: FetchCall) => FetchReply | Promise<FetchReply>): FetchCall[] {
  const calls: FetchCall[] = [];
  vi.stubGlobal('fetch', async (input: URL, init: RequestInit = {}) => {
    const url = new URL(input);
    const call = {
      method: init.method ?? 'GET',
      path: url.pathname,
      body: init.body ? JSON.parse(String(init.body)) : undefined,
    } as FetchCall;
    Object.defineProperty(call, 'url', { value: url, enumerable: false });
    calls.push(call);
    const { status = 200, body } = await answer(call);
    return new Response(status === 204 ? null : JSON.stringify(body), { status });
  });
  return calls;
}
