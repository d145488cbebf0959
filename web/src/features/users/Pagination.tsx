import { pageLabel } from './users.query.js';

interface PaginationProps {
  page: number;
  totalPages: number;
  busy: boolean;
  onPage(page: number): void;
}

/** docs/screens.md#users-page: Prev, "Page X of Y", Next. */
export function Pagination({ page, totalPages, busy, onPage }: PaginationProps) {
  return (
    <nav className="users-pagination" aria-label="Pagination">
      <button
        type="button"
        className="button button--secondary"
        disabled={busy || page <= 1}
        onClick={() => onPage(page - 1)}
      >
        Prev
      </button>
      <span aria-live="polite">{pageLabel(page, totalPages)}</span>
      <button
        type="button"
        className="button button--secondary"
        disabled={busy || page >= totalPages}
        onClick={() => onPage(page + 1)}
      >
        Next
      </button>
    </nav>
  );
}
