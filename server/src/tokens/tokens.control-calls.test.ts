import type { ActivityEntry, CreatedApiToken, Device } from '@hearth/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { eventually, waitFor } from '../../test/wait.js';
import type { UserRecord } from '../users/index.js';

// docs/api.md#what-a-token-may-call: a `control` token may also send several commands at once,
// apply a scene and run an automation now; a `read` token none of them. Each leaves its entries
// with the token as the actor (the commands their own, running an automation `automation.run`).

describe.each(testDatabases())('what a control token may call on $name', ({ create }) => {
  const t = useTestApp({ database: create, env: { SIMULATOR: 'on', SIMULATOR_DEVICES: '6' } });
  let resident: UserRecord;
  let lamp: Device;

  beforeAll(async () => {
    resident = await t.user('resident');
    const devices: Device[] = await waitFor(async () => {
      const list: Device[] = (await t.call(resident, 'GET', '/api/devicehub/devices')).body;
      return list.length === 6 && list;
    });
    lamp = devices.find((device) => device.name === 'Hallway lamp') as Device;
  });

  const token = async (scope: 'read' | 'control'): Promise<string> =>
    (
      (
        await t.call(resident, 'POST', '/api/auth/tokens', {
          name: `Script ${scope}`,
          expires_in: 'never',
          scope,
        })
      ).body as CreatedApiToken
    ).token;
  const withToken = async (secret: string, url: string, payload?: object) => {
    const answer = await t.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${secret}` },
      ...(payload ? { payload } : {}),
    });
    return { status: answer.statusCode, body: answer.json() };
  };

  it('sends several commands, applies a scene and runs an automation with a control token; a read token may not', async () => {
    const control = await token('control');
    const read = await token('read');
    const scene = (
      await t.call(resident, 'POST', '/api/scenes', {
        name: 'Evening',
        icon: 'sofa',
        targets: [{ device_id: lamp.id, state: { on: true } }],
      })
    ).body;
    const automation = (
      await t.call(resident, 'POST', '/api/automations', {
        name: 'Lamp on',
        triggers: [{ type: 'time', at: '07:00' }],
        actions: [{ type: 'device', device_id: lamp.id, state: { on: false } }],
      })
    ).body;
    expect([scene.id, automation.id].every((id) => typeof id === 'string')).toBe(true);

    const calls = [
      ['/api/devicehub/commands', { commands: [{ device_id: lamp.id, state: { on: true } }] }],
      [`/api/scenes/${scene.id}/apply`, undefined],
      [`/api/automations/${automation.id}/run`, undefined],
    ] as const;
    for (const [url, body] of calls) {
      const refused = await withToken(read, url, body);
      expect([url, refused.status]).toEqual([url, 403]);
      const done = await withToken(control, url, body);
      expect([url, done.status]).toEqual([url, url.endsWith('/run') ? 202 : 200]);
    }

    // The bulk command's and the scene's device commands and the run's automation.run, one entry
    // each (docs/activity.md#kinds): no api.call besides a call's own entry.
    const entries = await eventually(
      async (): Promise<ActivityEntry[]> =>
        (await t.call(resident, 'GET', '/api/activity?actor=api')).body.entries,
      (found) => found.filter((entry) => entry.result === 'ok').length >= 3,
    );
    expect(
      entries
        .filter((entry) => entry.result === 'ok')
        .map((entry) => {
          const detail = entry.detail as { route?: string; automation_id?: string };
          return [entry.kind, entry.device_id ?? detail.automation_id ?? detail.route];
        })
        .sort(),
    ).toEqual([
      ['automation.run', automation.id],
      ['device.command', lamp.id],
      ['device.command', lamp.id],
    ]);
  });

  it("records a refused scene apply as the token's call, with the reason the script was given", async () => {
    const control = await token('control');
    const missing = '00000000-0000-4000-8000-000000000000';
    const refused = await withToken(control, `/api/scenes/${missing}/apply`);
    expect(refused.status).toBe(404);
    const entry = await eventually(
      async (): Promise<ActivityEntry | undefined> =>
        ((await t.call(resident, 'GET', '/api/activity?actor=api')).body.entries as ActivityEntry[]).find(
          (found) => found.kind === 'api.call' && found.result === 'refused',
        ),
      (found) => found !== undefined,
    );
    expect(entry?.detail).toEqual({
      method: 'POST',
      route: '/api/scenes/:id/apply',
      status: 404,
      params: { id: missing },
      reason: refused.body.error,
    });
  });
});
