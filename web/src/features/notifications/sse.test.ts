import { describe, expect, it } from 'vitest';
import { SseParser } from './sse.js';

describe('SseParser', () => {
  it('reads named events, across chunks, skipping comments and the retry line', () => {
    const parser = new SseParser();
    expect(parser.feed('retry: 2000\n\n: keep-alive\n\nevent: notifications\nda')).toEqual([]);
    expect(parser.feed('ta: {"unread":2}\n\nevent: notifications\r\ndata: {"unread":0}\r\n\r\n')).toEqual([
      { event: 'notifications', data: '{"unread":2}' },
      { event: 'notifications', data: '{"unread":0}' },
    ]);
  });
});
