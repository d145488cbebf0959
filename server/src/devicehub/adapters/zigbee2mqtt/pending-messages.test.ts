import { describe, expect, it } from 'vitest';
import { PendingMessages } from './pending-messages.js';

const bytes = (size: number) => Buffer.alloc(size, 0x20);
const state = (size: number) => ({
  payload: bytes(size),
  retained: true,
  receivedAt: '2026-01-01T00:00:00.000Z',
});

describe('pending messages per unknown name', () => {
  it('keeps the newest availability and state of each name until taken', () => {
    const pending = new PendingMessages();
    pending.keepAvailability('a', Buffer.from('offline'));
    pending.keepAvailability('a', Buffer.from('online'));
    pending.keepState('a', state(3));
    expect(pending.take('a')).toEqual({ availability: Buffer.from('online'), state: state(3) });
    expect(pending.take('a')).toBeUndefined();
    expect([pending.size, pending.totalBytes]).toEqual([0, 0]);
  });

  it('evicts the name heard of longest ago when there are too many names', () => {
    const pending = new PendingMessages({ names: 2, bytes: 1000 });
    pending.keepAvailability('a', bytes(1));
    pending.keepAvailability('b', bytes(1));
    pending.keepAvailability('a', bytes(1)); // heard of again: now the newest
    pending.keepAvailability('c', bytes(1));
    expect([pending.take('b'), pending.take('a'), pending.take('c')].map(Boolean)).toEqual([
      false,
      true,
      true,
    ]);
  });

  it('evicts the oldest names when their payloads exceed the byte budget', () => {
    const pending = new PendingMessages({ names: 100, bytes: 100 });
    pending.keepState('a', state(40));
    pending.keepState('b', state(40));
    pending.keepState('c', state(40));
    expect([pending.size, pending.totalBytes]).toEqual([2, 80]);
    expect(pending.take('a')).toBeUndefined();
    pending.keepState('b', state(10)); // replaced, not added
    expect(pending.totalBytes).toBe(50);
  });

  it('forgets what an empty retained message cleared', () => {
    const pending = new PendingMessages();
    pending.keepAvailability('a', bytes(5));
    pending.keepState('a', state(5));
    pending.forget('a', 'state');
    expect(pending.take('a')).toEqual({ availability: bytes(5) });
    pending.keepAvailability('b', bytes(5));
    pending.forget('b', 'availability');
    expect([pending.size, pending.totalBytes]).toEqual([0, 0]);
  });
});
