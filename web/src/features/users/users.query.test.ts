import { describe, expect, it } from 'vitest';
import { initialUsersQuery, pageLabel, usersQueryReducer } from './users.query.js';

describe('users query (docs/api.md#users-page, docs/screens.md#role-and-lock-changes)', () => {
  const onPage3 = { q: 'ada', page: 3, pageSize: 20 };

  it('starts on page 1 with 20 per page and no search', () => {
    expect(initialUsersQuery).toEqual({ q: '', page: 1, pageSize: 20 });
  });

  it('resets to page 1 when the search changes', () => {
    expect(usersQueryReducer(onPage3, { type: 'search', q: '  grace ' })).toEqual({
      q: 'grace',
      page: 1,
      pageSize: 20,
    });
  });

  it('resets to page 1 when the page size changes', () => {
    expect(usersQueryReducer(onPage3, { type: 'pageSize', pageSize: 50 })).toEqual({
      q: 'ada',
      page: 1,
      pageSize: 50,
    });
  });

  it('ignores a page size that is not offered', () => {
    expect(usersQueryReducer(onPage3, { type: 'pageSize', pageSize: 7 })).toBe(onPage3);
  });

  it.each([
    [4, 5, 4],
    [6, 5, 5],
    [0, 5, 1],
    [2, 0, 1],
  ])('page %i of %i pages → %i', (page, totalPages, expected) => {
    expect(usersQueryReducer(onPage3, { type: 'page', page, totalPages }).page).toBe(expected);
  });

  it('reads "Page X of Y", never "of 0"', () => {
    expect(pageLabel(2, 7)).toBe('Page 2 of 7');
    expect(pageLabel(1, 0)).toBe('Page 1 of 1');
  });
});
