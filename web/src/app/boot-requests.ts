import { FIRST_SCREEN } from '../features/devices/api/devices.api.js';
import { readOAuthReturn } from '../features/session/oauth-return.js';
import { preload } from '../shared/api/client.js';
import { refreshTokens } from '../shared/api/refresh.js';
import { getRefreshToken } from '../shared/session/token-store.js';

/** What each page asks the server first, by its path: asked at boot for the page being opened. */
const PAGE_REQUESTS: [RegExp, string[]][] = [
  [/^\/devices\/?$/, [`/api/devicehub/devices?first=${FIRST_SCREEN}`, '/api/rooms', '/api/config']],
  [/^\/$/, ['/api/favourites', '/api/rooms', '/api/config']],
];

/**
 * Restores the session before React and the page's code have loaded (docs/screens.md#session):
 * the refresh starts at once, and with its access token the profile and the opened page's first
 * requests start together, where the page would otherwise ask for them one after the other once
 * its code had run. The session provider and the page take these answers (api `preload`). An
 * identity-provider return is left to the session provider, which spends the returned token.
 */
export function startBootRequests(location: Location) {
  if (readOAuthReturn(location.href).cleanUrl !== null || !getRefreshToken()) return;
  refreshTokens().then(
    () => {
      preload('/api/auth/me');
      for (const [page, paths] of PAGE_REQUESTS) {
        if (page.test(location.pathname)) for (const path of paths) preload(path);
      }
    },
    // A refused refresh has cleared the session: the provider finds no token and shows signed out.
    () => {},
  );
}
