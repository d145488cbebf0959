import type { Role, UsersPage } from '@hearth/contracts';
import { api } from '../../shared/api/client.js';

/** docs/api.md#accounts: the management calls of the Users page (wire names). */
export const usersApi = {
  list: ({ q, page, pageSize }: { q: string; page: number; pageSize: number }) =>
    api.get<UsersPage>('/api/auth/users', { q: q.trim() || undefined, page, page_size: pageSize }),
  /** docs/api.md#user-administration: with `reset_access`, the person's access rules are kept or reset (docs/access.md). */
  setRole: (id: string, role: Role, resetAccess: boolean) =>
    api.patch(`/api/auth/users/${encodeURIComponent(id)}`, { role, reset_access: resetAccess }),
  setLockout: ({ id, locked }: { id: string; locked: boolean }) =>
    api.post(`/api/auth/users/${encodeURIComponent(id)}/lockout`, { lock: locked }),
};
