import type { RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { isAccountsApi, TOKEN_CALLS, tokenCall } from './tokens.calls.js';

/** docs/api.md#what-a-token-may-call: the list names routes that exist, none of the accounts API. */
describe('the calls open to API tokens', () => {
  const routes: RouteOptions[] = [];
  useTestApp({ onRoute: (route) => routes.push(route) });

  it('names only routes the app has, none under /api/auth', () => {
    const table = new Set(routes.flatMap((route) => [route.method].flat().map((m) => `${m} ${route.url}`)));
    expect(Object.keys(TOKEN_CALLS).filter((call) => !table.has(call))).toEqual([]);
    expect(Object.keys(TOKEN_CALLS).filter((call) => isAccountsApi(call.split(' ')[1]!))).toEqual([]);
  });

  it('reads HEAD as its GET, and leaves everything else closed', () => {
    expect(tokenCall('HEAD', '/api/devicehub/devices')).toEqual({ scope: 'read' });
    expect(tokenCall('POST', '/api/devicehub/devices/:id/commands')).toEqual({
      scope: 'control',
      records: true,
    });
    expect(tokenCall('PATCH', '/api/devicehub/devices/:id')).toBeUndefined();
    expect(tokenCall('GET', undefined)).toBeUndefined();
    expect(isAccountsApi('/api/auth')).toBe(true);
    expect(isAccountsApi('/api/authx')).toBe(false);
  });
});
