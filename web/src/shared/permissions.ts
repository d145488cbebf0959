import type { Role } from '@hearth/contracts';

/** docs/roles.md: who sees the Devices and Users entries and pages. */
export const MANAGER_ROLES: readonly Role[] = ['resident', 'admin'];

export const canManage = (role: Role | null | undefined) => role != null && MANAGER_ROLES.includes(role);

/** docs/screens.md#routes: the music streaming provider, its route and its name. */
export const MUSIC_PROVIDER = { name: 'Spotify', path: '/spotify' } as const;
