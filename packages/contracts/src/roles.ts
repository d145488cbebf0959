export const ROLES = ['user', 'resident', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/**
 * docs/roles.md: the household's managers, who see and control the devices and open the Users page.
 * The one statement of the "resident or admin" rule: the server's guards and the edge broker,
 * and the web app's sidebar, pages and tiles all ask here.
 */
export const MANAGER_ROLES: readonly Role[] = ['resident', 'admin'];

/** Whether a role is a manager's (`null`/unknown: signed out or not known, so no). */
export const isManager = (role: Role | string | null | undefined): boolean =>
  MANAGER_ROLES.includes(role as Role);
