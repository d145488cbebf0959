import type { ApiTokenScope } from '@hearth/contracts';

/** A call open to API tokens: the scope it needs, and whether its route records its own activity entry. */
export interface TokenCall {
  scope: ApiTokenScope;
  /**
   * The route leaves its own entry once its handler runs (a command's `device.command`, a run's
   * `automation.run`), refusals included; `'sent'`: its entries only when it is carried out (a
   * scene's commands), a refusal leaves `api.call`. Others leave `api.call`.
   */
  records?: true | 'sent';
}

/**
 * docs/api.md#what-a-token-may-call: the only calls an API token may make, by method and route.
 * `read`: the device list and state, rooms, favourites, history and the activity log as the owner
 * may see them; `control`: also commands (to one device or several at once), applying a scene
 * and running an automation now (the call its `automation.run`, its steps the automation's own
 * entries). Every other route answers 403, the accounts API (`/api/auth/*`) with its own
 * message. A new route is closed to tokens until it is listed here.
 */
export const TOKEN_CALLS: Readonly<Record<string, TokenCall>> = {
  'GET /api/devicehub/devices': { scope: 'read' },
  'GET /api/devicehub/status': { scope: 'read' },
  'GET /api/rooms': { scope: 'read' },
  'GET /api/favourites': { scope: 'read' },
  'GET /api/history': { scope: 'read' },
  'GET /api/history/export': { scope: 'read' },
  'GET /api/activity': { scope: 'read' },
  'GET /api/activity/export': { scope: 'read' },
  'POST /api/devicehub/devices/:id/commands': { scope: 'control', records: true },
  'POST /api/devicehub/commands': { scope: 'control', records: true },
  'POST /api/scenes/:id/apply': { scope: 'control', records: 'sent' },
  'POST /api/automations/:id/run': { scope: 'control', records: true },
};

/** The call a route is (HEAD as its GET), if tokens may make it. */
export function tokenCall(method: string, url: string | undefined): TokenCall | undefined {
  if (url === undefined) return undefined;
  return TOKEN_CALLS[`${method === 'HEAD' ? 'GET' : method} ${url}`];
}

/** The accounts API: no token may use it (no password change, no new tokens, no factors, no sessions). */
export const isAccountsApi = (url: string): boolean => url === '/api/auth' || url.startsWith('/api/auth/');
