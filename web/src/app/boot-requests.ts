import { type Favourites, isManager, type Role, type User } from '@hearth/contracts';
import { devicesByIdsPath, FIRST_SCREEN } from '../features/devices/api/devices.paths.js';
import { readOAuthReturn } from '../features/session/oauth-return.js';
import { type ApiResult, preload } from '../shared/api/client.js';
import { refreshTokens } from '../shared/api/refresh.js';
import { getRefreshToken } from '../shared/session/token-store.js';

/**
 * What a page needs first: its code (through the page's own loadable, so the page draws at once
 * when the route renders it) and its first requests.
 */
interface PageStart {
  path: RegExp;
  code: () => Promise<unknown>;
  /** Code and follow-up requests for residents and admins only. */
  managersOnly?: boolean;
  requests: string[];
  /** Requests that follow from the first answers (a resident's or an admin's only). */
  followUp?: (answers: Map<string, Promise<ApiResult>>) => void;
}

const PAGES: PageStart[] = [
  {
    path: /^\/devices\/?$/,
    code: () => import('./pages.js').then((pages) => pages.DevicesPage.preload()),
    requests: [`/api/devicehub/devices?first=${FIRST_SCREEN}`, '/api/rooms', '/api/config'],
  },
  {
    // Home's live part (favourites and rooms) is a resident's or an admin's.
    path: /^\/$/,
    code: () => import('../features/home/home-live.lazy.js').then((live) => live.HomeLive.preload()),
    managersOnly: true,
    requests: ['/api/favourites', '/api/rooms', '/api/config'],
    // The favourite cards draw their devices, fetched by id, before the whole list.
    followUp: (answers) =>
      void answers.get('/api/favourites')?.then((answer) => {
        const ids = answer.success ? (answer.data as Favourites | undefined)?.device_ids : undefined;
        if (Array.isArray(ids) && ids.length > 0) preload(devicesByIdsPath(ids));
      }),
  },
];

/**
 * The role the access token names. The server reads the role from the database on every call
 * (the claim is informative): here it only decides what to fetch ahead, and /me still decides
 * what is shown.
 */
export function tokenRole(accessToken: string): Role | null {
  try {
    const payload = accessToken.split('.')[1] ?? '';
    const claims: unknown = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/')));
    const role = (claims as { role?: unknown } | null)?.role;
    return typeof role === 'string' ? (role as Role) : null;
  } catch {
    return null;
  }
}

/**
 * Restores the session before React and the page's code have loaded (docs/screens.md#session):
 * the refresh starts at once, and so does the opened page's code; with the refresh's access token
 * the profile and the page's first requests start together, where the page would otherwise ask
 * for them one after the other once its code had run. The session provider and the page take
 * these answers (api `preload`). An identity-provider return is left to the session provider,
 * which spends the returned token. Resolves once those requests are on their way (or the refresh
 * failed, or there was nothing to restore).
 */
export function startBootRequests(location: Location): Promise<void> {
  if (readOAuthReturn(location.href).cleanUrl !== null || !getRefreshToken()) return Promise.resolve();
  const page = PAGES.find((candidate) => candidate.path.test(location.pathname));
  // A failed download is the page's to report: it asks again when it renders.
  const loadCode = () => void page?.code().catch(() => {});
  if (!page?.managersOnly) loadCode();
  return refreshTokens().then(
    (accessToken) => {
      const profile = preload<User>('/api/auth/me');
      const answers = new Map(page?.requests.map((path) => [path, preload(path)]));
      if (!page?.managersOnly) return;
      const managerStart = () => {
        loadCode();
        page.followUp?.(answers);
      };
      // The token's role starts them at once; without one, the profile decides.
      const role = tokenRole(accessToken);
      if (role !== null) {
        if (isManager(role)) managerStart();
      } else {
        void profile.then((result) => result.success && isManager(result.data.role) && managerStart());
      }
    },
    // A refused refresh has cleared the session: the provider finds no token and shows signed out.
    () => {},
  );
}
