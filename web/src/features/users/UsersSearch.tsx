import { type FormEvent, useState } from 'react';
import { PAGE_SIZES } from './users.query.js';

interface UsersSearchProps {
  pageSize: number;
  busy: boolean;
  onSearch(q: string): void;
  onPageSize(pageSize: number): void;
}

/** docs/screens.md#users-page search form: the text, the page size and the Search button. */
export function UsersSearch({ pageSize, busy, onSearch, onPageSize }: UsersSearchProps) {
  const [draft, setDraft] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(draft);
  };
  return (
    <search>
      <form className="users-search" onSubmit={submit}>
        <input
          type="search"
          className="input users-search__text"
          placeholder="Search by name or email..."
          aria-label="Search by name or email"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
        <select
          className="select users-search__size"
          aria-label="Users per page"
          value={pageSize}
          onChange={(event) => onPageSize(Number(event.target.value))}
        >
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}/page
            </option>
          ))}
        </select>
        <button type="submit" className="button button--primary users-search__submit" disabled={busy}>
          {busy ? 'Searching…' : 'Search'}
        </button>
      </form>
    </search>
  );
}
