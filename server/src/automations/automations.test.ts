import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '../../test/databases.js';
import { eventually, waitFor } from '../../test/wait.js';
import { type AutomationKit, startAutomationKit } from './automations-test-kit.js';

// docs/automations.md: every trigger, condition and action, the run modes, the guarantees, with a
// fake clock on both databases (issue 37, acceptance 1).

describe.each(testDatabases())('automations on $name', ({ create }) => {
  let database: TestDatabase;
  let kit: AutomationKit;
  beforeAll(async () => {
    database = await create();
    kit = await startAutomationKit(database);
  }, 60_000);
  afterAll(async () => {
    await kit?.close();
    await database?.drop();
  });

  const fan = () => kit.device('Bathroom fan').id;
  const sensor = () => kit.device('Bathroom sensor').id;
  const lamp = () => kit.device('Living room/Lamp').id;
  const remote = () => kit.device('Kitchen remote').id;

  async function automation(body: Record<string, unknown>, as = kit.resident) {
    const { status, body: created } = await kit.call(as, 'POST', '/api/automations', body);
    expect(status, JSON.stringify(created)).toBe(201);
    return created as { id: string; next_run: string | null };
  }
  const runs = async (id: string) =>
    (await kit.call(kit.admin, 'GET', `/api/automations/${id}/runs`)).body.runs as {
      status: string;
      trigger: { type: string; description: string; fire_at?: string };
      steps: { kind: string; result: string; error?: string; index?: number }[];
    }[];
  const fanOn = { type: 'device', device_id: '', state: { state: 'ON' } };
  const setsOfFan = () => kit.sets('Bathroom fan').length;
  /** Moves the clock to `iso` and beats. */
  const at = async (iso: string) => {
    kit.clock.set(iso);
    await kit.tick();
  };

  it('a time trigger fires once at its time, with its next run computed in UTC from the household zone', async () => {
    kit.clock.set('2026-06-01T10:00:00Z');
    const before = setsOfFan();
    const made = await automation({
      name: 'Fan at noon',
      triggers: [{ type: 'time', at: '12:00' }],
      actions: [{ ...fanOn, device_id: fan() }],
    });
    // 12:00 in Berlin (CEST) is 10:00 UTC: the next one is tomorrow's, as now is 10:00 UTC.
    expect(made.next_run).toBe('2026-06-02T10:00:00.000Z');
    await at('2026-06-02T09:59:59Z');
    expect(await runs(made.id)).toEqual([]);
    await at('2026-06-02T10:00:00Z');
    await kit.tick();
    await at('2026-06-02T10:00:01Z');
    await waitFor(() => setsOfFan() === before + 1);
    const trace = await runs(made.id);
    expect(trace).toHaveLength(1);
    expect(trace[0]).toMatchObject({
      status: 'done',
      trigger: { type: 'time', fire_at: '2026-06-02T10:00:00.000Z' },
    });
    expect(trace[0]?.steps).toEqual([expect.objectContaining({ kind: 'device', index: 0, result: 'sent' })]);
    const listed = (await kit.call(kit.admin, 'GET', `/api/automations/${made.id}`)).body;
    expect(listed.next_run).toBe('2026-06-03T10:00:00.000Z');
    expect(listed.last_run).toMatchObject({ status: 'done' });
    await kit.call(kit.admin, 'DELETE', `/api/automations/${made.id}`);
  });

  it('cron and sun triggers fire at their instants', async () => {
    const before = setsOfFan();
    kit.clock.set('2026-06-10T08:00:00Z');
    const cron = await automation({
      name: 'Every 5 minutes',
      triggers: [{ type: 'cron', expression: '*/5 * * * *' }],
      actions: [{ type: 'notify', to: 'household', title: 'Tick', body: 'Five minutes' }],
    });
    expect(cron.next_run).toBe('2026-06-10T08:05:00.000Z');
    const sun = await automation({
      name: 'Porch at sunset',
      triggers: [{ type: 'sun', event: 'sunset', offset_minutes: -15 }],
      actions: [{ ...fanOn, device_id: fan() }],
    });
    // Berlin, 10 June: sunset about 19:28 UTC.
    expect(Date.parse(sun.next_run as string)).toBeGreaterThan(Date.parse('2026-06-10T19:00:00Z'));
    expect(Date.parse(sun.next_run as string)).toBeLessThan(Date.parse('2026-06-10T19:20:00Z'));
    await at('2026-06-10T08:05:00Z');
    expect((await runs(cron.id)).map((run) => run.status)).toEqual(['done']);
    await at(sun.next_run as string);
    expect((await runs(sun.id)).map((run) => run.status)).toEqual(['done']);
    // The sun's command reaches the bus after its run is done: it is there before the next test counts
    // the fan's commands (under load that test once counted it as its own).
    await waitFor(() => setsOfFan() === before + 1);
    await kit.call(kit.admin, 'DELETE', `/api/automations/${cron.id}`);
    await kit.call(kit.admin, 'DELETE', `/api/automations/${sun.id}`);
  });

  it('state, event and availability triggers start runs; the trace names what happened', async () => {
    const before = setsOfFan();
    await kit.report('Bathroom sensor', { humidity: 50 });
    const humid = await automation({
      name: 'Humid',
      triggers: [{ type: 'state', device_id: sensor(), property: 'humidity', above: 70 }],
      actions: [{ ...fanOn, device_id: fan() }],
    });
    const pressed = await automation({
      name: 'Remote',
      triggers: [{ type: 'event', device_id: remote(), value: 'toggle' }],
      actions: [{ ...fanOn, device_id: fan() }],
    });
    const offline = await automation({
      name: 'Fan offline',
      triggers: [{ type: 'availability', device_id: fan(), online: false }],
      actions: [{ type: 'notify', to: 'household', title: 'Fan offline', body: 'Check it' }],
    });
    await kit.report('Bathroom sensor', { humidity: 60 });
    await kit.report('Bathroom sensor', { humidity: 74 });
    await eventually(
      () => runs(humid.id),
      (list) => list[0]?.status === 'done',
    );
    expect((await runs(humid.id))[0]?.trigger).toEqual({
      type: 'state',
      description: 'Bathroom sensor humidity 74 (above 70)',
    });
    // Still above: not a new crossing.
    await kit.report('Bathroom sensor', { humidity: 76 });
    await kit.z2m.publish('Kitchen remote', { action: 'toggle' });
    await eventually(
      () => runs(pressed.id),
      (list) => list[0]?.status === 'done',
    );
    await kit.z2m.publish('Bathroom fan/availability', { state: 'online' });
    await kit.z2m.publish('Bathroom fan/availability', { state: 'offline' });
    await eventually(
      () => runs(offline.id),
      (list) => list[0]?.status === 'done',
    );
    expect((await runs(humid.id)).length).toBe(1);
    expect(setsOfFan()).toBe(before + 2);
    await kit.z2m.publish('Bathroom fan/availability', { state: 'online' });
    for (const id of [humid.id, pressed.id, offline.id])
      await kit.call(kit.admin, 'DELETE', `/api/automations/${id}`);
  });

  it('conditions: a device property, a time window over midnight, weekdays, the sun', async () => {
    await kit.report('Bathroom sensor', { humidity: 40, temperature: 21 });
    const made = await automation({
      name: 'Night and warm',
      triggers: [{ type: 'state', device_id: sensor(), property: 'humidity', above: 70 }],
      conditions: [
        { type: 'state', device_id: sensor(), property: 'temperature', above: 20 },
        { type: 'time', after: '22:00', before: '06:00' },
        { type: 'time', weekdays: [1, 2, 3, 4, 5] },
        { type: 'sun', is: 'down' },
      ],
      actions: [{ ...fanOn, device_id: fan() }],
    });
    // Monday 2026-06-01, 14:00 in Berlin: not in the window.
    kit.clock.set('2026-06-01T12:00:00Z');
    await kit.report('Bathroom sensor', { humidity: 80 });
    const first = await eventually(
      () => runs(made.id),
      (list) => list.length === 1,
    );
    expect(first[0]?.status).toBe('skipped');
    expect(first[0]?.steps.map((step) => step.result)).toEqual(['true', 'false']);
    // Monday 23:30 in Berlin (21:30 UTC): in the window, a weekday, the sun down.
    kit.clock.set('2026-06-01T21:30:00Z');
    await kit.report('Bathroom sensor', { humidity: 40 });
    await kit.report('Bathroom sensor', { humidity: 81 });
    const second = await eventually(
      () => runs(made.id),
      (list) => list.length === 2 && list[0]?.status === 'done',
    );
    expect(second[0]?.steps.filter((step) => step.kind === 'condition').map((step) => step.result)).toEqual([
      'true',
      'true',
      'true',
      'true',
    ]);
    // Saturday 23:30: not a weekday.
    kit.clock.set('2026-06-06T21:30:00Z');
    await kit.report('Bathroom sensor', { humidity: 40 });
    await kit.report('Bathroom sensor', { humidity: 82 });
    const third = await eventually(
      () => runs(made.id),
      (list) => list.length === 3,
    );
    expect(third[0]?.status).toBe('skipped');
    expect(third[0]?.steps.map((step) => step.result)).toEqual(['true', 'true', 'false']);
    await kit.call(kit.admin, 'DELETE', `/api/automations/${made.id}`);
  });

  it('actions: a scene, a wait that resumes when due, a notification, enabling another automation; each in the activity log as the automation', async () => {
    kit.clock.set('2026-06-02T12:00:00Z');
    const scene = (
      await kit.call(kit.resident, 'POST', '/api/scenes', {
        name: 'Fan off',
        targets: [{ device_id: fan(), state: { state: 'OFF' } }],
      })
    ).body;
    const other = await automation({
      name: 'Other',
      enabled: false,
      triggers: [{ type: 'time', at: '07:00' }],
      actions: [{ type: 'wait', seconds: 1 }],
    });
    const person = await kit.user('user');
    const made = await automation({
      name: 'Everything',
      triggers: [{ type: 'start' }],
      actions: [
        { ...fanOn, device_id: fan() },
        { type: 'wait', seconds: 120 },
        { type: 'scene', scene_id: scene.id },
        { type: 'notify', to: [person.id], title: 'Done', body: 'The fan ran' },
        { type: 'automation', automation_id: other.id, enabled: true },
      ],
    });
    const before = kit.sets('Bathroom fan');
    const run = await kit.call(kit.resident, 'POST', `/api/automations/${made.id}/run`);
    expect(run.status).toBe(202);
    await kit.tick();
    expect((await runs(made.id))[0]).toMatchObject({ status: 'waiting', trigger: { type: 'manual' } });
    await at('2026-06-02T12:01:59Z');
    expect((await runs(made.id))[0]?.status).toBe('waiting');
    await at('2026-06-02T12:02:00Z');
    const done = await eventually(
      () => runs(made.id),
      (list) => list[0]?.status === 'done',
    );
    expect(done[0]?.steps.map((step) => [step.kind, step.result])).toEqual([
      ['device', 'sent'],
      ['wait', 'waited 120 s'],
      ['scene', 'sent 1 of 1'],
      ['notify', 'notified'],
      ['automation', 'enabled'],
    ]);
    await eventually(
      async () => kit.sets('Bathroom fan').slice(before.length),
      (sent) => JSON.stringify(sent) === JSON.stringify([{ state: 'ON' }, { state: 'OFF' }]),
    );
    expect((await kit.call(kit.admin, 'GET', `/api/automations/${other.id}`)).body.enabled).toBe(true);
    const inbox = await kit.call(person, 'GET', '/api/notifications');
    expect(inbox.body.notifications).toEqual([
      expect.objectContaining({ kind: 'automation', title: 'Done', body: 'The fan ran' }),
    ]);
    // Nobody else was told.
    expect(
      (await kit.call(kit.admin, 'GET', '/api/notifications')).body.notifications.some(
        (n: { title: string }) => n.title === 'Done',
      ),
    ).toBe(false);
    const log = await kit.call(kit.admin, 'GET', '/api/activity?actor=automation');
    const entries = log.body.entries.filter((entry: { actor: { id: string } }) => entry.actor.id === made.id);
    expect(entries.map((entry: { kind: string }) => entry.kind).sort()).toEqual([
      'automation.enable',
      'automation.notify',
      'device.command',
      'device.command',
    ]);
    expect(entries[0].actor).toEqual({
      type: 'automation',
      id: made.id,
      label: 'Everything',
      owner: { id: kit.resident.id, label: `${kit.resident.firstName} ${kit.resident.lastName}` },
    });
    for (const id of [made.id, other.id]) await kit.call(kit.admin, 'DELETE', `/api/automations/${id}`);
  });

  it('run modes: single ignores a trigger while it runs, restart stops the run, queued runs them in turn', async () => {
    kit.clock.set('2026-06-03T12:00:00Z');
    const make = (mode: string) =>
      automation({
        name: `Mode ${mode}`,
        mode,
        triggers: [{ type: 'time', at: '23:59' }],
        actions: [
          { type: 'wait', seconds: 60 },
          { ...fanOn, device_id: fan() },
        ],
      });
    const single = await make('single');
    const restart = await make('restart');
    const queued = await make('queued');
    for (const id of [single.id, restart.id, queued.id]) {
      await kit.call(kit.admin, 'POST', `/api/automations/${id}/run`);
      await kit.call(kit.admin, 'POST', `/api/automations/${id}/run`);
    }
    await kit.tick();
    expect((await runs(single.id)).map((run) => run.status)).toEqual(['skipped', 'waiting']);
    expect((await runs(single.id))[0]?.steps.at(-1)?.error).toBe('Already running');
    expect((await runs(restart.id)).map((run) => run.status)).toEqual(['waiting', 'stopped']);
    expect((await runs(queued.id)).map((run) => run.status)).toEqual(['queued', 'waiting']);
    await at('2026-06-03T12:01:00Z');
    expect((await runs(queued.id)).map((run) => run.status)).toEqual(['waiting', 'done']);
    await at('2026-06-03T12:02:00Z');
    expect((await runs(queued.id)).map((run) => run.status)).toEqual(['done', 'done']);
    expect((await runs(single.id)).map((run) => run.status)).toEqual(['skipped', 'done']);
    for (const id of [single.id, restart.id, queued.id])
      await kit.call(kit.admin, 'DELETE', `/api/automations/${id}`);
  });

  it('the loop breaker pauses an automation that runs more than 30 times a minute, and tells admins', async () => {
    kit.clock.set('2026-06-04T12:00:00Z');
    const made = await automation({
      name: 'Flapping',
      triggers: [{ type: 'event', device_id: remote(), value: 'on' }],
      actions: [{ type: 'notify', to: [kit.resident.id], title: 'Pressed', body: 'Again' }],
    });
    for (let i = 0; i < 31; i++) {
      await kit.z2m.publish('Kitchen remote', { action: 'on' });
      await eventually(
        () => runs(made.id),
        (list) => list.length === Math.min(i + 1, 50) && list.every((run) => run.status !== 'running'),
      );
    }
    const trace = await runs(made.id);
    expect(trace[0]).toMatchObject({ status: 'stopped' });
    expect(trace[0]?.steps.at(-1)).toMatchObject({
      kind: 'loop',
      error: 'Paused: it ran more than 30 times in a minute',
    });
    const listed = (await kit.call(kit.admin, 'GET', `/api/automations/${made.id}`)).body;
    expect(listed).toMatchObject({
      enabled: false,
      paused_reason: 'Paused: it ran more than 30 times in a minute',
    });
    // The admins' notice follows the run's record (it is delivered after the pause is stored).
    await eventually(
      async () => (await kit.call(kit.admin, 'GET', '/api/notifications')).body.notifications,
      (inbox: { kind: string; title: string }[]) =>
        inbox.some(
          (notice) => notice.kind === 'automation' && notice.title === 'Automation paused: Flapping',
        ),
    );
    // Paused: another press does not run it.
    await kit.z2m.publish('Kitchen remote', { action: 'on' });
    await kit.report('Bathroom sensor', { humidity: 33 });
    expect((await runs(made.id)).length).toBe(31);
    await kit.call(kit.admin, 'DELETE', `/api/automations/${made.id}`);
  });

  it('keeps the last 50 runs of an automation: the list shows them, the database holds few more', async () => {
    const start = Date.parse('2026-06-05T12:00:00Z');
    kit.clock.set(new Date(start).toISOString());
    // Run now alone starts it (no schedule of its own to fire meanwhile).
    const made = await automation({
      name: 'Often',
      triggers: [{ type: 'event', device_id: remote(), value: 'never sent' }],
      actions: [{ ...fanOn, device_id: fan() }],
    });
    const ids: string[] = [];
    for (let i = 0; i < 61; i++) {
      // 20 runs a minute: under the loop breaker's 30.
      kit.clock.set(new Date(start + i * 3000).toISOString());
      const { status, body } = await kit.call(kit.admin, 'POST', `/api/automations/${made.id}/run`);
      expect(status, JSON.stringify(body)).toBe(202);
      ids.push(body.run_id);
      await eventually(
        () => runs(made.id),
        (list: { id?: string; status: string }[]) =>
          list[0]?.id === body.run_id && list[0]?.status === 'done',
      );
    }
    const listed = (await runs(made.id)) as { id?: string }[];
    expect(listed.map((run) => run.id)).toEqual(ids.slice(-50).reverse());
    // Old runs are pruned every tenth run: never more than ten beyond the fifty.
    const storage = database.open();
    try {
      const stored = await storage.db
        .selectFrom('automation_runs')
        .select('id')
        .where('automation_id', '=', made.id)
        .execute();
      expect(stored.length).toBeGreaterThanOrEqual(50);
      expect(stored.length).toBeLessThan(60);
      expect(stored.map((run) => run.id).sort()).toEqual(ids.slice(-stored.length).sort());
    } finally {
      await storage.close();
    }
    await kit.call(kit.admin, 'DELETE', `/api/automations/${made.id}`);
  });

  it("an automation acts with its owner's reach at each run: a device taken from them fails that step", async () => {
    kit.clock.set('2026-06-05T12:00:00Z');
    const owner = await kit.user('resident');
    const made = await automation(
      {
        name: 'Narrowed',
        triggers: [{ type: 'start' }],
        actions: [
          { ...fanOn, device_id: fan() },
          { type: 'device', device_id: lamp(), state: { state: 'ON' } },
        ],
      },
      owner,
    );
    const rules = await kit.call(kit.admin, 'PUT', `/api/access/${owner.id}`, {
      rooms: {},
      devices: { [fan()]: 'view' },
    });
    expect(rules.status).toBe(200);
    await kit.call(kit.admin, 'POST', `/api/automations/${made.id}/run`);
    const trace = await eventually(
      () => runs(made.id),
      (list) => list[0]?.status === 'failed',
    );
    expect(trace[0]?.steps).toEqual([
      expect.objectContaining({
        kind: 'device',
        result: 'failed',
        error: 'You may only view this device, not control it',
      }),
      expect.objectContaining({ kind: 'device', result: 'sent' }),
    ]);
    const refused = (await kit.call(kit.admin, 'GET', `/api/activity?device_id=${fan()}&kind=device.command`))
      .body.entries[0];
    expect(refused).toMatchObject({ result: 'refused', actor: { type: 'automation', id: made.id } });
    await kit.call(kit.admin, 'DELETE', `/api/automations/${made.id}`);
  });

  it('a `user` may not see or make automations or scenes', async () => {
    const user = await kit.user('user');
    for (const [method, url] of [
      ['GET', '/api/automations'],
      ['POST', '/api/automations'],
      ['GET', '/api/scenes'],
      ['POST', '/api/scenes/capture'],
    ] as const)
      expect((await kit.call(user, method, url, method === 'POST' ? {} : undefined)).status).toBe(403);
  });
});
