import { afterEach, describe, expect, it, vi } from 'vitest';
import { NotificationsLiveStore } from './notifications-live.js';
import { isIos } from './pwa.js';

/** A response whose body is these Server-Sent Events, kept open until `end()`. */
function eventStream(...frames: string[]) {
  let close: () => void = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const frame of frames) controller.enqueue(new TextEncoder().encode(frame));
      close = () => controller.close();
    },
  });
  return { response: new Response(body, { status: 200 }), end: () => close() };
}

const summary = (unread: number) =>
  `event: notifications\ndata: ${JSON.stringify({ unread, critical: [] })}\n\n`;

describe('the live notification summary (docs/alerts.md#live)', () => {
  let store: NotificationsLiveStore | undefined;
  afterEach(() => store?.stop());

  it('shows each summary as it arrives, and opens the stream again when it ends', async () => {
    const streams = [eventStream('retry: 2000\n\n', summary(2)), eventStream(summary(5))];
    const asked: string[] = [];
    store = new NotificationsLiveStore(async (input) => {
      asked.push(String(input));
      const next = streams.shift();
      if (!next) return new Promise<Response>(() => {});
      return next.response;
    });
    const first = streams[0];
    store.start();
    await vi.waitFor(() => expect(store?.getSnapshot().unread).toBe(2));
    expect(store.getSnapshot()).toEqual({ unread: 2, critical: [], connected: true });
    first?.end();
    await vi.waitFor(() => expect(store?.getSnapshot().unread).toBe(5));
    expect(asked).toEqual(['/api/notifications/stream', '/api/notifications/stream']);
  });
});

describe('isIos', () => {
  it.each([
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15', 0, true],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15', 5, true],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15', 0, false],
    ['Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/126.0 Mobile', 5, false],
  ])('%s with %i touch points: %s', (agent, touch, expected) => {
    expect(isIos(agent, touch)).toBe(expected);
  });
});
