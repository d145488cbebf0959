export const ROLES = ['user', 'resident', 'admin'] as const;
export type Role = (typeof ROLES)[number];
