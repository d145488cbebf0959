/**
 * Examples the OpenAPI document shows, by operation (`METHOD /openapi/{path}`), taken from the docs
 * pages (docs/api.md, docs/devicehub.md, docs/history.md, docs/activity.md). A request example must
 * pass the route's own body schema (openapi.test.ts checks it), so none goes stale unnoticed.
 */
export interface OperationExample {
  /** The success status, when not 200. */
  status?: string;
  description?: string;
  request?: unknown;
  response?: unknown;
  /** The success answer's content type, when not JSON. */
  type?: string;
}

export const OPERATION_EXAMPLES: Readonly<Record<string, OperationExample>> = {
  'POST /api/auth/login/start': {
    description: 'Signed in (2FA off), or a code was mailed',
    request: { email: 'ada@example.com', password: 'correct horse battery staple' },
    response: { '2fa_required': false, access_token: 'eyJhbGciOi…', refresh_token: 'q3X…' },
  },
  'POST /api/auth/refresh': {
    description: 'A new token pair',
    request: { refresh_token: 'q3X…' },
    response: { access_token: 'eyJhbGciOi…', refresh_token: 'Zk9…' },
  },
  'GET /api/auth/tokens': {
    description: 'The caller’s API tokens (an admin’s: everyone’s), newest first',
    response: {
      tokens: [
        {
          id: '5f0c7a52-…',
          name: 'Heating cron',
          scope: 'control',
          rooms: [],
          devices: [],
          created_at: '2026-06-01T12:00:00.000Z',
          expires_at: '2026-08-30T12:00:00.000Z',
          last_used_at: '2026-06-02T06:00:04.000Z',
          last_used_ip: '192.0.2.7',
          owner: { id: '9b1d…', label: 'Ada Lovelace' },
        },
      ],
    },
  },
  'POST /api/auth/tokens': {
    status: '201',
    description: 'The new token, with `token` shown this once',
    request: { name: 'Heating cron', expires_in: '90d', scope: 'control', rooms: [], devices: [] },
    response: {
      id: '5f0c7a52-…',
      name: 'Heating cron',
      scope: 'control',
      rooms: [],
      devices: [],
      created_at: '2026-06-01T12:00:00.000Z',
      expires_at: '2026-08-30T12:00:00.000Z',
      last_used_at: null,
      last_used_ip: null,
      owner: { id: '9b1d…', label: 'Ada Lovelace' },
      token: 'hearth_…',
    },
  },
  'DELETE /api/auth/tokens/{id}': { status: '204', description: 'Revoked' },
  'GET /api/devicehub/devices': {
    description: 'The devices the caller may view, each with `access`',
    response: [
      {
        id: '0b6f3c1e-…',
        external_id: '0x00158d0001a2b3c4',
        name: 'Hallway lamp',
        manufacturer: 'IKEA',
        model: 'LED1545G12',
        type: 'light',
        protocol: 'zigbee',
        description: null,
        firmware: null,
        online: true,
        last_seen: '2026-06-01T12:00:00.000Z',
        created_at: '2026-05-01T09:00:00.000Z',
        updated_at: '2026-06-01T12:00:00.000Z',
        state: { state: 'ON', brightness: 120 },
        capabilities: [],
        inputs: [],
        room_id: null,
        suggested_room: null,
        access: 'control',
      },
    ],
  },
  'GET /api/devicehub/status': {
    response: { bus: 'online', since: '2026-06-01T12:00:00.000Z', bridge: 'online' },
  },
  'POST /api/devicehub/devices/{id}/commands': {
    description: 'Handed to the device’s ecosystem; its new state arrives on the stream',
    request: { state: { on: true } },
    response: { success: true, data: { device_id: '0b6f3c1e-…', status: 'sent' }, error: null },
  },
  'GET /api/history': {
    response: {
      device_id: '0b6f3c1e-…',
      property: 'temperature',
      resolution: '5m',
      bucket_ms: 300000,
      type: 'number',
      points: [{ t: '2026-06-01T12:00:00.000Z', min: 21.2, max: 21.6, mean: 21.4, last: 21.5, count: 30 }],
    },
  },
  'GET /api/history/export': {
    type: 'text/csv',
    response: 'time,value\r\n2026-06-01T12:00:00.000Z,21.4\r\n',
  },
  'GET /api/activity': {
    response: {
      entries: [
        {
          id: '0193f1c2a8e10000071a2b3c4d',
          at: '2026-06-01T12:00:00.000Z',
          actor: {
            type: 'api',
            id: '5f0c7a52-…',
            label: 'Heating cron',
            owner: { id: '9b1d…', label: 'Ada Lovelace' },
          },
          ip: '192.0.2.7',
          kind: 'device.command',
          device_id: '0b6f3c1e-…',
          detail: { name: 'Hallway lamp', state: { on: true } },
          result: 'ok',
        },
      ],
      next_cursor: null,
    },
  },
  'GET /api/config': { response: { devicehub_topic_prefix: 'hearth' } },
  'GET /healthz': {
    response: { status: 'ok', details: { bus_round_trip_ms: 1.2, bus_delay_warning: false } },
  },
};
