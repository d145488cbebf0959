import type { User } from '@hearth/contracts';

type Named = Partial<Pick<User, 'first_name' | 'last_name' | 'user_name' | 'name'>>;

/** SPEC 9: first letters of first and last name; otherwise the first 2 letters of user_name. */
export function initials(user: Named | null | undefined): string {
  const first = user?.first_name?.trim();
  const last = user?.last_name?.trim();
  if (first && last) return `${first[0]}${last[0]}`.toUpperCase();
  const fallback = user?.user_name?.trim() || user?.name?.trim() || '';
  return fallback.slice(0, 2).toUpperCase() || '?';
}
