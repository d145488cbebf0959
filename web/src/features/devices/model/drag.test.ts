import { describe, expect, it } from 'vitest';
import { droppedIds } from './drag.js';

describe('droppedIds', () => {
  it.each<[string, string[]]>([
    ['["a","b"]', ['a', 'b']],
    ['["a",3,"",null]', ['a']],
    ['{"a":1}', []],
    ['not json', []],
    ['', []],
  ])('%s → %j', (text, ids) => {
    expect(droppedIds(text)).toEqual(ids);
  });
});
