import type { ActivityEntry } from '@hearth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '../../test/databases.js';
import { eventually } from '../../test/wait.js';
import type { UserRecord } from '../users/index.js';
import { type AutomationKit, startAutomationKit } from './automations-test-kit.js';

// docs/automations.md#who (issue 32): a resident narrowed by access rules neither learns of nor
// changes the scenes and automations naming what is hidden from them, and cannot make anyone's
// scene or automation act beyond their own reach; creating, editing, deleting and running them is
// in the activity log. On both databases.

describe.each(testDatabases())('scenes and automations within reach on $name', ({ create }) => {
  let database: TestDatabase;
  let kit: AutomationKit;
  let nres: UserRecord;
  let bathroom: string;
  beforeAll(async () => {
    database = await create();
    kit = await startAutomationKit(database);
    bathroom = (await kit.call(kit.admin, 'POST', '/api/rooms', { name: 'Bathroom' })).body.id;
    await kit.call(kit.admin, 'PUT', `/api/rooms/${bathroom}/devices`, { device_ids: [sensor(), fan()] });
    nres = await kit.user('resident');
    const rules = { rooms: { [bathroom]: 'none' }, devices: { [lamp()]: 'view' } };
    expect((await kit.call(kit.admin, 'PUT', `/api/access/${nres.id}`, rules)).status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await kit?.close();
    await database?.drop();
  });

  const fan = () => kit.device('Bathroom fan').id;
  const sensor = () => kit.device('Bathroom sensor').id;
  const lamp = () => kit.device('Living room/Lamp').id;
  const remote = () => kit.device('Kitchen remote').id;
  const notFound = (error: string) => ({ status: 404, body: { error } });
  const viewOnly = { status: 403, body: { error: 'You may only view Living room/Lamp, not control it' } };
  const made = async (url: string, body: object, by = kit.admin) => {
    const answer = await kit.call(by, 'POST', url, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body as { id: string };
  };
  const entries = async (viewer: UserRecord, kind: string): Promise<ActivityEntry[]> => {
    await kit.app.activity.flush();
    return (await kit.call(viewer, 'GET', `/api/activity?kind=${kind}`)).body.entries;
  };

  it('lists a narrowed resident only the scenes naming nothing hidden from them, and answers 404 for the others', async () => {
    const bath = await made('/api/scenes', {
      name: 'Bath',
      room_id: bathroom,
      targets: [{ device_id: fan(), state: { state: 'ON' } }],
    });
    const evening = await made('/api/scenes', {
      name: 'Evening',
      targets: [{ device_id: lamp(), state: { state: 'ON' } }],
    });
    const listed = (await kit.call(nres, 'GET', '/api/scenes')).body;
    expect(listed.scenes.map((scene: { id: string }) => scene.id)).toEqual([evening.id]);
    expect(JSON.stringify(listed)).not.toContain(fan());
    expect(JSON.stringify(listed)).not.toContain(bathroom);
    expect(await kit.call(nres, 'PATCH', `/api/scenes/${bath.id}`, { name: 'Mine' })).toEqual(
      notFound('Scene not found'),
    );
    expect(await kit.call(nres, 'POST', `/api/scenes/${bath.id}/apply`)).toEqual(notFound('Scene not found'));
    expect(await kit.call(nres, 'DELETE', `/api/scenes/${bath.id}`)).toEqual(notFound('Scene not found'));
    // A hidden room is as unknown as a room that does not exist.
    expect(await kit.call(nres, 'PATCH', `/api/scenes/${evening.id}`, { room_id: bathroom })).toEqual({
      status: 400,
      body: { error: `Unknown room: ${bathroom}` },
    });
    const all = (await kit.call(kit.admin, 'GET', '/api/scenes')).body.scenes.map(
      (s: { id: string }) => s.id,
    );
    expect(all).toEqual(expect.arrayContaining([bath.id, evening.id]));
  });

  it("a scene's targets need control: nobody saves into a scene what they may only view", async () => {
    const command = [{ device_id: lamp(), state: { state: 'ON' } }];
    expect(await kit.call(nres, 'POST', '/api/scenes', { name: 'Lamp', targets: command })).toEqual(viewOnly);
    expect(
      await kit.call(nres, 'POST', '/api/scenes/capture', { name: 'Lamp', device_ids: [lamp()] }),
    ).toEqual(viewOnly);
    const evening = await made('/api/scenes', { name: 'Lamp only', targets: command });
    expect(await kit.call(nres, 'PATCH', `/api/scenes/${evening.id}`, { targets: command })).toEqual(
      viewOnly,
    );
    // Renaming it hands nothing out.
    expect((await kit.call(nres, 'PATCH', `/api/scenes/${evening.id}`, { name: 'Dusk' })).status).toBe(200);
  });

  it('lists a narrowed resident only the automations naming nothing hidden from them, and answers 404 for the others', async () => {
    const hidden = await made('/api/automations', {
      name: 'Fan when humid',
      triggers: [{ type: 'state', device_id: sensor(), property: 'humidity', above: 70 }],
      actions: [{ type: 'device', device_id: lamp(), state: { state: 'ON' } }],
    });
    const seen = await made('/api/automations', {
      name: 'Lamp at noon',
      triggers: [{ type: 'time', at: '12:00' }],
      actions: [{ type: 'device', device_id: lamp(), state: { state: 'ON' } }],
    });
    const listed = (await kit.call(nres, 'GET', '/api/automations')).body;
    const ids = listed.automations.map((automation: { id: string }) => automation.id);
    expect(ids).toContain(seen.id);
    expect(ids).not.toContain(hidden.id);
    expect(JSON.stringify(listed)).not.toContain(sensor());
    const absent = notFound('Automation not found');
    expect(await kit.call(nres, 'GET', `/api/automations/${hidden.id}`)).toEqual(absent);
    expect(await kit.call(nres, 'GET', `/api/automations/${hidden.id}/runs`)).toEqual(absent);
    expect(await kit.call(nres, 'PATCH', `/api/automations/${hidden.id}`, { enabled: false })).toEqual(
      absent,
    );
    expect(await kit.call(nres, 'POST', `/api/automations/${hidden.id}/run`)).toEqual(absent);
    expect(await kit.call(nres, 'DELETE', `/api/automations/${hidden.id}`)).toEqual(absent);
    // Nor does their own automation reach it by switching it on.
    const enabling = {
      name: 'Switch it on',
      triggers: [{ type: 'time', at: '07:00' }],
      actions: [{ type: 'automation', automation_id: hidden.id, enabled: true }],
    };
    expect(await kit.call(nres, 'POST', '/api/automations', enabling)).toEqual({
      status: 400,
      body: { error: `Unknown automation: ${hidden.id}` },
    });
    expect((await kit.call(kit.admin, 'GET', `/api/automations/${hidden.id}`)).status).toBe(200);
  });

  it("running or switching on another's automation needs control of what it acts on", async () => {
    const lampAtNoon = await made('/api/automations', {
      name: 'Lamp on',
      enabled: false,
      triggers: [{ type: 'time', at: '12:00' }],
      actions: [{ type: 'device', device_id: lamp(), state: { state: 'ON' } }],
    });
    const url = `/api/automations/${lampAtNoon.id}`;
    // It acts with the admin's reach: run or switched on by the resident, it would do what they may not.
    expect(await kit.call(nres, 'POST', `${url}/run`)).toEqual(viewOnly);
    expect(await kit.call(nres, 'PATCH', url, { enabled: true })).toEqual(viewOnly);
    const scene = await made('/api/scenes', {
      name: 'Lamp',
      targets: [{ device_id: lamp(), state: { state: 'ON' } }],
    });
    const viaScene = await made('/api/automations', {
      name: 'Lamp scene',
      enabled: false,
      triggers: [{ type: 'time', at: '12:00' }],
      actions: [{ type: 'scene', scene_id: scene.id }],
    });
    expect(await kit.call(nres, 'POST', `/api/automations/${viaScene.id}/run`)).toEqual(viewOnly);
    const enabling = {
      name: 'Switch the lamp on',
      triggers: [{ type: 'time', at: '07:00' }],
      actions: [{ type: 'automation', automation_id: lampAtNoon.id, enabled: true }],
    };
    expect(await kit.call(nres, 'POST', '/api/automations', enabling)).toEqual(viewOnly);
    // Switching off takes nothing away from them; the admin runs it.
    expect((await kit.call(nres, 'PATCH', url, { enabled: false })).status).toBe(200);
    expect((await kit.call(kit.admin, 'POST', `${url}/run`)).status).toBe(202);
    expect((await kit.call(kit.admin, 'GET', url)).body.enabled).toBe(false);
  });

  it("an automation switching on another is held to its owner's reach when it runs, not only when saved", async () => {
    const owner = await kit.user('resident');
    await kit.call(kit.admin, 'PUT', `/api/access/${owner.id}`, { rooms: {}, devices: { [lamp()]: 'view' } });
    const other = await made('/api/automations', {
      name: 'Fan now',
      enabled: false,
      triggers: [{ type: 'time', at: '12:00' }],
      actions: [{ type: 'device', device_id: fan(), state: { state: 'ON' } }],
    });
    const switching = await made(
      '/api/automations',
      {
        name: 'Fan on',
        enabled: false,
        triggers: [{ type: 'time', at: '07:00' }],
        actions: [{ type: 'automation', automation_id: other.id, enabled: true }],
      },
      owner,
    );
    // The admin makes the other one command the lamp too, which the owner may only view.
    const both = [
      { type: 'device', device_id: fan(), state: { state: 'ON' } },
      { type: 'device', device_id: lamp(), state: { state: 'ON' } },
    ];
    expect(
      (await kit.call(kit.admin, 'PATCH', `/api/automations/${other.id}`, { actions: both })).status,
    ).toBe(200);
    expect((await kit.call(owner, 'POST', `/api/automations/${switching.id}/run`)).status).toBe(202);
    const trace = await eventually(
      async () => (await kit.call(kit.admin, 'GET', `/api/automations/${switching.id}/runs`)).body.runs,
      (runs: { status: string; steps: unknown[] }[]) => runs[0]?.status === 'failed',
    );
    expect(trace[0]?.steps).toEqual([
      expect.objectContaining({
        kind: 'automation',
        result: 'failed',
        error: 'You may only view Living room/Lamp, not control it',
      }),
    ]);
    expect((await kit.call(kit.admin, 'GET', `/api/automations/${other.id}`)).body.enabled).toBe(false);
  });

  it("an API token narrowed away from what its owner's automation acts on may not run it", async () => {
    const owner = await kit.user('resident');
    const lampRoom = (await kit.call(kit.admin, 'POST', '/api/rooms', { name: 'Living room' })).body.id;
    await kit.call(kit.admin, 'PUT', `/api/rooms/${lampRoom}/devices`, { device_ids: [lamp()] });
    const rule = await made(
      '/api/automations',
      {
        name: 'Lamp at seven',
        triggers: [{ type: 'time', at: '07:00' }],
        actions: [{ type: 'device', device_id: lamp(), state: { state: 'ON' } }],
      },
      owner,
    );
    const token = async (rooms: string[]) =>
      (
        await kit.call(owner, 'POST', '/api/auth/tokens', {
          name: `Script ${rooms.length}`,
          expires_in: 'never',
          scope: 'control',
          rooms,
        })
      ).body.token as string;
    const run = async (secret: string) =>
      (
        await kit.app.app.inject({
          method: 'POST',
          url: `/api/automations/${rule.id}/run`,
          headers: { authorization: `Bearer ${secret}` },
        })
      ).statusCode;
    // A token for the bathroom only: the run would command the lamp with the owner's reach.
    expect(await run(await token([bathroom]))).toBe(404);
    expect(await run(await token([lampRoom]))).toBe(202);
    // The owner, as themselves, runs it. Runs are recorded once they have ended (they are answered
    // 202 before): the test ends when all three are (the refused one, the token's, the owner's), so
    // none lands in the next test's window.
    expect((await kit.call(owner, 'POST', `/api/automations/${rule.id}/run`)).status).toBe(202);
    const recorded = await eventually(
      async () =>
        (await entries(kit.admin, 'automation.run')).filter(
          (entry) => (entry.detail as { automation_id?: string }).automation_id === rule.id,
        ),
      (list) => list.length >= 3,
    );
    expect(recorded.filter((entry) => entry.actor.type === 'user').map((entry) => entry.actor.id)).toEqual([
      owner.id,
    ]);
  });

  it('records creating, editing, deleting and running scenes and automations, within the viewer’s reach', async () => {
    const since = new Date().toISOString();
    const scene = await made('/api/scenes', {
      name: 'Steam',
      room_id: bathroom,
      targets: [{ device_id: fan(), state: { state: 'ON' } }],
    });
    await kit.call(kit.admin, 'PATCH', `/api/scenes/${scene.id}`, { name: 'Steam off' });
    await kit.call(kit.admin, 'DELETE', `/api/scenes/${scene.id}`);
    const rule = await made(
      '/api/automations',
      {
        name: 'Remote lamp',
        triggers: [{ type: 'event', device_id: remote(), value: 'on' }],
        actions: [{ type: 'device', device_id: fan(), state: { state: 'ON' } }],
      },
      kit.resident,
    );
    await kit.call(kit.resident, 'PATCH', `/api/automations/${rule.id}`, { name: 'Remote fan' });
    await kit.call(kit.resident, 'POST', `/api/automations/${rule.id}/run`);
    await kit.call(kit.resident, 'DELETE', `/api/automations/${rule.id}`);
    const recent = (list: ActivityEntry[]) => list.filter((entry) => entry.at >= since);
    const detail = (list: ActivityEntry[]) => recent(list).map((entry) => [entry.actor.id, entry.detail]);
    expect(detail(await entries(kit.admin, 'scene.create'))).toEqual([
      [kit.admin.id, { scene_id: scene.id, name: 'Steam', room_id: bathroom, device_ids: [fan()], count: 1 }],
    ]);
    expect(detail(await entries(kit.admin, 'scene.update'))).toEqual([
      [
        kit.admin.id,
        { scene_id: scene.id, name: 'Steam off', room_id: bathroom, device_ids: [fan()], count: 1 },
      ],
    ]);
    expect(detail(await entries(kit.admin, 'scene.delete'))).toEqual([
      [
        kit.admin.id,
        { scene_id: scene.id, name: 'Steam off', room_id: bathroom, device_ids: [fan()], count: 1 },
      ],
    ]);
    const named = { device_ids: [remote(), fan()], count: 2 };
    expect(detail(await entries(kit.admin, 'automation.create'))).toEqual([
      [kit.resident.id, { automation_id: rule.id, name: 'Remote lamp', ...named }],
    ]);
    expect(detail(await entries(kit.admin, 'automation.update'))).toEqual([
      [kit.resident.id, { automation_id: rule.id, name: 'Remote fan', ...named }],
    ]);
    expect(detail(await entries(kit.admin, 'automation.run'))).toEqual([
      [kit.resident.id, { automation_id: rule.id, name: 'Remote fan', ...named }],
    ]);
    expect(detail(await entries(kit.admin, 'automation.delete'))).toEqual([
      [kit.resident.id, { automation_id: rule.id, name: 'Remote fan', ...named }],
    ]);
    // The narrowed resident reads none of the scene's entries (its room and device are hidden from
    // them), and the automation's without the fan.
    for (const kind of ['scene.create', 'scene.update', 'scene.delete'])
      expect(recent(await entries(nres, kind))).toEqual([]);
    expect(recent(await entries(nres, 'automation.create')).map((entry) => entry.detail)).toEqual([
      { automation_id: rule.id, name: 'Remote lamp', device_ids: [remote()], count: 1 },
    ]);
  });
});
