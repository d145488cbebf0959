import type { ApiToken } from '@hearth/contracts';
import { describe, expect, it } from 'vitest';
import { describeToken } from './api-tokens.format.js';

const token = (fields: Partial<ApiToken>): ApiToken => ({
  id: 't1',
  name: 'Cron',
  scope: 'read',
  rooms: [],
  devices: [],
  created_at: '2026-06-01T12:00:00.000Z',
  expires_at: null,
  last_used_at: null,
  last_used_ip: null,
  owner: { id: 'u1', label: 'Ada Lovelace' },
  ...fields,
});
const rooms = (id: string) => ({ r1: 'Hall', r2: 'Kitchen' })[id];

describe('a token in the list', () => {
  it.each([
    [{}, 'Everything you may see', /^Created .+ · Never used · Never expires$/],
    [{ rooms: ['r1', 'r2'] }, 'Hall, Kitchen', /Never used/],
    [{ rooms: ['gone'], devices: ['d1'] }, 'gone, 1 device', /Never expires$/],
    [{ devices: ['d1', 'd2'] }, '2 devices', /Never expires$/],
    [
      {
        last_used_at: '2026-06-02T06:00:00.000Z',
        last_used_ip: '192.0.2.7',
        expires_at: '2026-08-30T12:00:00.000Z',
      },
      'Everything you may see',
      /· Last used .+ from 192\.0\.2\.7 · Expires .+$/,
    ],
  ])('%o covers "%s"', (fields, covers, when) => {
    const [what, times] = describeToken(token(fields), rooms);
    expect(what).toBe(covers);
    expect(times).toMatch(when);
  });
});
