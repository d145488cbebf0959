import { describe, expect, it } from 'vitest';
import { noActivity } from '../activity/index.js';
import { roleReach } from '../devicehub/index.js';
import type { UserRecord } from '../users/index.js';
import type { ApiTokenRecord, ApiTokensRepository } from './tokens.repository.js';
import { hashApiToken, newApiToken } from './tokens.secret.js';
import { ApiTokensService } from './tokens.service.js';

const owner = {
  id: 'u1',
  role: 'resident',
  lockoutEnabled: false,
  lockoutReason: null,
} as unknown as UserRecord;
const record = (fields: Partial<ApiTokenRecord>): ApiTokenRecord => ({
  id: 't1',
  ownerId: 'u1',
  ownerLabel: 'Ada',
  name: 'Cron',
  scope: 'read',
  rooms: [],
  devices: [],
  createdAt: '2026-06-01T00:00:00.000Z',
  expiresAt: null,
  lastUsedAt: null,
  lastUsedIp: null,
  revokedAt: null,
  ...fields,
});

/** An in-memory repository that notes every call it gets (a fake: the HTTP tests use the real one). */
function recordingRepository(rows: Map<string, ApiTokenRecord>) {
  const calls: string[] = [];
  const repository = {
    byHash: async (hash: string) => {
      calls.push('byHash');
      return rows.get(hash);
    },
    touch: async () => {
      calls.push('touch');
    },
  } as unknown as ApiTokensRepository;
  return { repository, calls };
}

describe('looking a token up', () => {
  it('takes the same path for an unknown and a revoked token: one read by hash, nothing else', async () => {
    const revoked = newApiToken();
    const rows = new Map([[hashApiToken(revoked), record({ revokedAt: '2026-06-02T00:00:00.000Z' })]]);
    const { repository, calls } = recordingRepository(rows);
    const users: string[] = [];
    const service = new ApiTokensService({
      repository,
      users: {
        findById: async (id) => {
          users.push(id);
          return owner;
        },
      },
      reach: roleReach,
      devices: { has: () => true, roomOf: () => null },
      gate: { visible: () => [] },
      activity: noActivity,
    });
    expect(await service.resolve(newApiToken())).toBeUndefined();
    const unknown = calls.splice(0);
    expect(await service.resolve(revoked)).toBeUndefined();
    expect(calls).toEqual(unknown);
    expect(unknown).toEqual(['byHash']);
    expect(users).toEqual([]);
    // A malformed one is not looked up at all.
    expect(await service.resolve('hearth_short')).toBeUndefined();
    expect(calls).toEqual(['byHash']);
  });
});
