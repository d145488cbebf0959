import { describe, expect, it } from 'vitest';
import { PacketLengthGuard } from './packet-length-guard.js';

const header = (length: number) => {
  const bytes = [0x30];
  do {
    let digit = length % 128;
    length = Math.floor(length / 128);
    if (length > 0) digit |= 0x80;
    bytes.push(digit);
  } while (length > 0);
  return Uint8Array.from(bytes);
};

describe('PacketLengthGuard', () => {
  it('accepts packets up to the limit, across chunk boundaries', () => {
    const guard = new PacketLengthGuard(1000);
    const first = header(996); // 4-byte packet header + 996 = 1000
    expect(first).toHaveLength(3);
    expect(guard.accept(Uint8Array.of(...first, ...new Uint8Array(500)))).toBe(true);
    expect(guard.accept(new Uint8Array(497))).toBe(true);
    // The next packet's header arrives split in two chunks.
    const second = header(10);
    expect(guard.accept(second.subarray(0, 1))).toBe(true);
    expect(guard.accept(Uint8Array.of(...second.subarray(1), ...new Uint8Array(10)))).toBe(true);
  });

  it('refuses a packet over the limit as soon as its header is read', () => {
    const guard = new PacketLengthGuard(256 * 1024);
    expect(guard.accept(header(256 * 1024))).toBe(false);
  });

  it('refuses a remaining length longer than four bytes', () => {
    expect(
      new PacketLengthGuard(Number.MAX_SAFE_INTEGER).accept(
        Uint8Array.of(0x30, 0xff, 0xff, 0xff, 0xff, 0x01),
      ),
    ).toBe(false);
  });
});
