import { describe, expect, it } from 'vitest';
import { columnsFor } from './Masonry.js';

describe('columnsFor', () => {
  it.each([
    [360, 1],
    [599, 1],
    [800, 2],
    [1000, 3],
    [1399, 3],
    [1440, 3],
    [1600, 3],
    [1920, 4],
  ])('%i px → %i columns', (width, columns) => {
    expect(columnsFor(width)).toBe(columns);
  });
});
