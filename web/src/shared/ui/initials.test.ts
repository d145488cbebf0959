import { describe, expect, it } from 'vitest';
import { initials } from './initials.js';

describe('initials (docs/strings.md#constants-and-limits)', () => {
  it.each([
    [{ first_name: 'Ada', last_name: 'Lovelace', user_name: 'ada' }, 'AL'],
    [{ first_name: 'ada', last_name: 'lovelace' }, 'AL'],
    [{ first_name: 'Ada', last_name: '', user_name: 'countess' }, 'CO'],
    [{ first_name: '', last_name: 'Lovelace', user_name: 'x' }, 'X'],
    [{ first_name: ' Émile ', last_name: ' Zola ' }, 'ÉZ'],
    [{ user_name: 'bob' }, 'BO'],
    [{}, ''],
    [null, ''],
  ])('%j → %s', (user, expected) => {
    expect(initials(user)).toBe(expected);
  });
});
