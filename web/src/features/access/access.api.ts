import type { AccessRules, User, UsersPage } from '@hearth/contracts';
import { type ApiResult, api } from '../../shared/api/client.js';

/** docs/access.md#api, through the shared client (result wrapper, never throws). */
const rulesPath = (userId: string) => `/api/access/${encodeURIComponent(userId)}`;

export const fetchRules = (userId: string): Promise<ApiResult<AccessRules>> =>
  api.get<AccessRules>(rulesPath(userId));

/** Replaces the person's rules (an entry left out means the role's default). */
export const saveRules = (rules: AccessRules): Promise<ApiResult<AccessRules>> =>
  api.put<AccessRules>(rulesPath(rules.user_id), rules);

/** The largest page of GET /api/auth/users. */
const PAGE_SIZE = 100;

/** Every account of the directory, page after page (a household has a few; the loop ends at the last page). */
export async function fetchEveryone(): Promise<ApiResult<User[]>> {
  const people: User[] = [];
  for (let page = 1; ; page++) {
    const result = await api.get<UsersPage>('/api/auth/users', { page, page_size: PAGE_SIZE });
    if (!result.success || !Array.isArray(result.data?.users)) return { ...result, data: people };
    people.push(...result.data.users);
    if (page >= result.data.total_pages) return { ...result, data: people };
  }
}
