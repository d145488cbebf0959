export interface InitialsUser {
  first_name?: string | null;
  last_name?: string | null;
  user_name?: string | null;
}

/** docs/strings.md#constants-and-limits: first letters of first and last name; otherwise the first 2 letters of user_name. */
export function initials(user: InitialsUser | null | undefined): string {
  const first = user?.first_name?.trim() ?? '';
  const last = user?.last_name?.trim() ?? '';
  if (first && last) return `${[...first][0]}${[...last][0]}`.toUpperCase();
  const userName = user?.user_name?.trim() ?? '';
  return [...userName].slice(0, 2).join('').toUpperCase();
}
