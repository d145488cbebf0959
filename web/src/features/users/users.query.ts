/** docs/api.md#users-page / docs/screens.md#role-and-lock-changes: what the Users page asks for, and how it changes. */
export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;
export const SKELETON_ROWS = 6;

export interface UsersQuery {
  q: string;
  page: number;
  pageSize: number;
}

export type UsersQueryChange =
  | { type: 'search'; q: string }
  | { type: 'pageSize'; pageSize: number }
  | { type: 'page'; page: number; totalPages: number };

export const initialUsersQuery: UsersQuery = { q: '', page: 1, pageSize: DEFAULT_PAGE_SIZE };

/** Changing the search or the page size resets to page 1; paging stays within 1…totalPages. */
export function usersQueryReducer(query: UsersQuery, change: UsersQueryChange): UsersQuery {
  switch (change.type) {
    case 'search':
      return { ...query, q: change.q.trim(), page: 1 };
    case 'pageSize':
      return PAGE_SIZES.includes(change.pageSize as (typeof PAGE_SIZES)[number])
        ? { ...query, pageSize: change.pageSize, page: 1 }
        : query;
    case 'page': {
      const page = Math.min(Math.max(1, change.page), Math.max(1, change.totalPages));
      return page === query.page ? query : { ...query, page };
    }
  }
}

/** "Page X of Y", with at least one page even when the list is empty. */
export function pageLabel(page: number, totalPages: number): string {
  return `Page ${page} of ${Math.max(1, totalPages)}`;
}
