import { describe, expect, it } from 'vitest';
import { ARROW_SCROLL_PX, dragScrollLeft, TODAY, WEEK } from './weather.sample.js';

describe('weather sample (docs/screens.md#home, docs/strings.md#constants-and-limits)', () => {
  it('has the hourly slots as HH:00', () => {
    expect(TODAY.map((item) => item.hour)).toEqual(['09:00', '12:00', '15:00', '18:00', '21:00']);
  });

  it('has seven days Fri through Thu', () => {
    expect(WEEK.map((item) => item.day)).toEqual(['Fri', 'Sat', 'Sun', 'Mon', 'Tue', 'Wed', 'Thu']);
  });

  it('scrolls 80 px per arrow and drags at 1.2×', () => {
    expect(ARROW_SCROLL_PX).toBe(80);
    expect(dragScrollLeft(100, -50)).toBe(160);
    expect(dragScrollLeft(100, 50)).toBe(40);
  });
});
