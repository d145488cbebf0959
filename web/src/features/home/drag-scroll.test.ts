import { describe, expect, it } from 'vitest';
import { dragScrollLeft } from './drag-scroll.js';

describe('dragScrollLeft (docs/strings.md#constants-and-limits)', () => {
  it('moves the row against the pointer at 1.2×', () => {
    expect(dragScrollLeft(100, -50)).toBe(160);
    expect(dragScrollLeft(100, 50)).toBe(40);
  });
});
