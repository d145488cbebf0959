import { isManager, type User } from '@hearth/contracts';
import { FIRST_SCREEN } from '../features/devices/api/devices.api.js';
import { readOAuthReturn } from '../features/session/oauth-return.js';
import { preload } from '../shared/api/client.js';
import { refreshTokens } from '../shared/api/refresh.js';
import { getRefreshToken } from '../shared/session/token-store.js';

/**
 * What a page needs first: its code (through the page's own loadable, so the page draws at once
 * when the route renders it) and its first requests.
 */
interface PageStart {
  path: RegExp;
  code: () => Promise<unknown>;
  /** Code for residents and admins only: fetched once the profile says so. */
  managersOnly?: boolean;
  requests: string[];
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
  },
];

/**
 * Restores the session before React and the page's code have loaded (docs/screens.md#session):
 * the refresh starts at once, and so does the opened page's code; with the refresh's access token
 * the profile and the page's first requests start together, where the page would otherwise ask
 * for them one after the other once its code had run. The session provider and the page take
 * these answers (api `preload`). An identity-provider return is left to the session provider,
 * which spends the returned token.
 */
export function startBootRequests(location: Location) {
  if (readOAuthReturn(location.href).cleanUrl !== null || !getRefreshToken()) return;
  const page = PAGES.find((candidate) => candidate.path.test(location.pathname));
  // A failed download is the page's to report: it asks again when it renders.
  const loadCode = () => void page?.code().catch(() => {});
  if (!page?.managersOnly) loadCode();
  refreshTokens().then(
    () => {
      const profile = preload<User>('/api/auth/me');
      for (const path of page?.requests ?? []) preload(path);
      if (page?.managersOnly) {
        void profile.then((result) => result.success && isManager(result.data.role) && loadCode());
      }
    },
    // A refused refresh has cleared the session: the provider finds no token and shows signed out.
    () => {},
  );
}
