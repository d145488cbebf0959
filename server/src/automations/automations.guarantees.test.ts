import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '../../test/databases.js';
import { eventually, waitFor } from '../../test/wait.js';
import { nowIso } from '../storage/columns.js';
import { type AutomationKit, startAutomationKit } from './automations-test-kit.js';

// docs/automations.md#guarantees: daylight saving, catch_up, a wait and a `for` across a restart,
// and the refusals of bad input (issue 37, acceptance 1 and 4), on both databases.

type Run = {
  status: string;
  trigger: { type: string; description: string; fire_at?: string };
  steps: { kind: string; result: string; error?: string }[];
};

describe.each(testDatabases())('automation guarantees on $name', ({ create }) => {
  let database: TestDatabase;
  let kit: AutomationKit;
  beforeAll(async () => {
    database = await create();
    kit = await startAutomationKit(database, { at: '2026-03-28T12:00:00Z' });
  }, 60_000);
  afterAll(async () => {
    await kit?.close();
    await database?.drop();
  });

  const fan = () => kit.device('Bathroom fan').id;
  const sensor = () => kit.device('Bathroom sensor').id;
  const notify = { type: 'notify', to: 'household', title: 'Ping', body: 'Ping' };
  async function automation(body: Record<string, unknown>) {
    const { status, body: created } = await kit.call(kit.resident, 'POST', '/api/automations', body);
    expect(status, JSON.stringify(created)).toBe(201);
    return created as { id: string; next_run: string | null };
  }
  const runs = async (id: string) =>
    (await kit.call(kit.admin, 'GET', `/api/automations/${id}/runs`)).body.runs as Run[];
  /** Beats every `stepMs` from now until `until`: as a running Hearth's clock would. */
  async function beatUntil(until: string, stepMs: number) {
    for (let at = kit.clock.now(); at <= Date.parse(until); at += stepMs) {
      kit.clock.set(at);
      await kit.tick();
    }
  }
  const remove = async (...ids: string[]) => {
    for (const id of ids) await kit.call(kit.admin, 'DELETE', `/api/automations/${id}`);
  };

  it('Europe/Berlin 2026-03-29: 02:30 runs once right after the jump; a wildcard schedule skips the lost hour', async () => {
    kit.clock.set('2026-03-28T23:00:00Z');
    const skipped = await automation({
      name: '02:30',
      triggers: [{ type: 'time', at: '02:30' }],
      actions: [notify],
    });
    const wild = await automation({
      name: 'Half-hourly',
      triggers: [{ type: 'cron', expression: '*/30 * * * *' }],
      actions: [notify],
    });
    expect(skipped.next_run).toBe('2026-03-29T01:00:00.000Z');
    await beatUntil('2026-03-29T02:10:00Z', 5 * 60_000);
    expect((await runs(skipped.id)).map((run) => run.trigger.fire_at)).toEqual(['2026-03-29T01:00:00.000Z']);
    expect((await runs(wild.id)).map((run) => run.trigger.fire_at).reverse()).toEqual([
      '2026-03-28T23:30:00.000Z',
      '2026-03-29T00:00:00.000Z',
      '2026-03-29T00:30:00.000Z',
      '2026-03-29T01:00:00.000Z',
      '2026-03-29T01:30:00.000Z',
      '2026-03-29T02:00:00.000Z',
    ]);
    await remove(skipped.id, wild.id);
  });

  it('Europe/Berlin 2026-10-25: 02:30 runs once in the repeated hour, a wildcard schedule in both passes', async () => {
    kit.clock.set('2026-10-24T23:50:00Z');
    const repeated = await automation({
      name: '02:30 Oct',
      triggers: [{ type: 'time', at: '02:30' }],
      actions: [notify],
    });
    const wild = await automation({
      name: 'Half-hourly Oct',
      triggers: [{ type: 'cron', expression: '*/30 * * * *' }],
      actions: [notify],
    });
    await beatUntil('2026-10-25T02:10:00Z', 5 * 60_000);
    expect((await runs(repeated.id)).map((run) => run.trigger.fire_at)).toEqual(['2026-10-25T00:30:00.000Z']);
    expect((await runs(wild.id)).map((run) => run.trigger.fire_at).reverse()).toEqual([
      '2026-10-25T00:00:00.000Z',
      '2026-10-25T00:30:00.000Z',
      '2026-10-25T01:00:00.000Z',
      '2026-10-25T01:30:00.000Z',
      '2026-10-25T02:00:00.000Z',
    ]);
    expect((await kit.call(kit.admin, 'GET', `/api/automations/${repeated.id}`)).body.next_run).toBe(
      '2026-10-26T01:30:00.000Z',
    );
    await remove(repeated.id, wild.id);
  });

  it('catch_up: fires missed while Hearth was down are recorded as missed (skip), or the latest runs once (run_once, within an hour)', async () => {
    kit.clock.set('2026-04-01T08:00:00Z');
    const skip = await automation({
      name: 'Skip',
      triggers: [{ type: 'time', at: '10:15' }],
      actions: [notify],
    });
    const once = await automation({
      name: 'Once',
      catch_up: 'run_once',
      triggers: [{ type: 'cron', expression: '0,20,40 * * * *' }],
      actions: [notify],
    });
    const late = await automation({
      name: 'Too late',
      catch_up: 'run_once',
      triggers: [{ type: 'time', at: '09:00' }],
      actions: [notify],
    });
    await kit.restart();
    // Down from 08:00 to 09:30 UTC (10:00-11:30 in Berlin, CEST).
    kit.clock.set('2026-04-01T09:30:00Z');
    await kit.tick();
    expect(await runs(skip.id)).toEqual([
      expect.objectContaining({
        status: 'missed',
        steps: [expect.objectContaining({ error: 'Hearth was not running at the time' })],
      }),
    ]);
    const caught = await runs(once.id);
    expect(caught.map((run) => run.status)).toEqual(['done', 'missed']);
    expect(caught[0]?.trigger).toMatchObject({
      fire_at: '2026-04-01T09:20:00.000Z',
      description: expect.stringContaining('(caught up)'),
    });
    expect(caught[1]?.steps[0]?.error).toBe('Hearth was not running: 3 fires missed');
    // 09:00 local was 07:00 UTC... before the stop; 08:00 local tomorrow is next: nothing missed.
    expect((await runs(late.id)).map((run) => run.status)).toEqual([]);
    // Next fires are in the future again; one more beat changes nothing.
    await kit.tick();
    expect((await runs(once.id)).length).toBe(2);
    await remove(skip.id, once.id, late.id);
  });

  it('a wait survives a restart: the run resumes at its deadline and finishes once', async () => {
    kit.clock.set('2026-04-02T08:00:00Z');
    const made = await automation({
      name: 'Fan for two minutes',
      triggers: [{ type: 'start' }],
      actions: [
        { type: 'device', device_id: fan(), state: { state: 'ON' } },
        { type: 'wait', seconds: 120 },
        { type: 'device', device_id: fan(), state: { state: 'OFF' } },
      ],
    });
    const before = kit.sets('Bathroom fan').length;
    await kit.call(kit.admin, 'POST', `/api/automations/${made.id}/run`);
    await eventually(
      () => runs(made.id),
      (list) => list[0]?.status === 'waiting',
    );
    await kit.restart();
    // The restart's start trigger is a run of its own; single mode ignores it while the first waits.
    expect((await runs(made.id)).map((run) => run.status)).toEqual(['skipped', 'waiting']);
    kit.clock.set('2026-04-02T08:02:00Z');
    await kit.tick();
    await eventually(
      () => runs(made.id),
      (list) => list[1]?.status === 'done',
    );
    await eventually(
      async () => kit.sets('Bathroom fan').slice(before),
      (sent) => JSON.stringify(sent) === JSON.stringify([{ state: 'ON' }, { state: 'OFF' }]),
    );
    await kit.tick();
    expect((await runs(made.id)).filter((run) => run.status === 'done')).toHaveLength(1);
    await remove(made.id);
  });

  /** The fan on once the bathroom's humidity has stayed above 70 for 5 minutes. */
  const fanWhenHumidFor5Minutes = (name: string) =>
    automation({
      name,
      triggers: [{ type: 'state', device_id: sensor(), property: 'humidity', above: 70, for_seconds: 300 }],
      actions: [{ type: 'device', device_id: fan(), state: { state: 'ON' } }],
    });

  it('a `for` survives a restart: humidity above 70 held for 5 minutes turns the fan on once', async () => {
    kit.clock.set('2026-04-03T08:00:00Z');
    await kit.report('Bathroom sensor', { humidity: 50 });
    const made = await fanWhenHumidFor5Minutes('Humid for 5 minutes');
    // Above, then below before 5 minutes: nothing.
    await kit.report('Bathroom sensor', { humidity: 75 });
    kit.clock.set('2026-04-03T08:02:00Z');
    await kit.report('Bathroom sensor', { humidity: 60 });
    kit.clock.set('2026-04-03T08:06:00Z');
    await kit.tick();
    expect(await runs(made.id)).toEqual([]);
    // Above again at 08:06, a restart at 08:08, due at 08:11.
    await kit.report('Bathroom sensor', { humidity: 74 });
    await waitFor(
      async () =>
        (
          await database
            .open()
            .db.selectFrom('automation_pending')
            .selectAll()
            .execute()
            .finally(() => {})
        ).length === 1 || undefined,
    );
    await kit.restart();
    kit.clock.set('2026-04-03T08:10:59Z');
    await kit.tick();
    expect(await runs(made.id)).toEqual([]);
    kit.clock.set('2026-04-03T08:11:00Z');
    await kit.tick();
    const trace = await eventually(
      () => runs(made.id),
      (list) => list[0]?.status === 'done',
    );
    expect(trace).toHaveLength(1);
    expect(trace[0]?.trigger.description).toBe('Bathroom sensor humidity 74 (above 70) for 300 s');
    await remove(made.id);
  });

  it('a value that goes above and at once below leaves no `for` deadline behind: the fan stays off', async () => {
    kit.clock.set('2026-04-04T08:00:00Z');
    await kit.report('Bathroom sensor', { humidity: 50 });
    const made = await fanWhenHumidFor5Minutes('Humid, briefly');
    const before = kit.sets('Bathroom fan').length;
    // Ten crossings up and down with no wait between them: each deadline written and dropped again,
    // whichever of the pool's connections takes which write.
    const sent: Promise<unknown>[] = [];
    for (let i = 0; i < 10; i++) {
      sent.push(kit.z2m.publish('Bathroom sensor', { humidity: 75 + i }));
      sent.push(kit.z2m.publish('Bathroom sensor', { humidity: 60 }));
    }
    await Promise.all(sent);
    await kit.report('Bathroom sensor', { humidity: 61 });
    kit.clock.set('2026-04-04T08:06:00Z');
    await kit.tick();
    expect(await runs(made.id)).toEqual([]);
    expect(kit.sets('Bathroom fan').slice(before)).toEqual([]);
    const left = await database.open().db.selectFrom('automation_pending').selectAll().execute();
    expect(left).toEqual([]);
    await remove(made.id);
  });

  it('refuses bad input with 400 naming the field: unknown fields and types, cycles, crons that never fire, unknown devices and properties', async () => {
    const post = (body: unknown) => kit.call(kit.resident, 'POST', '/api/automations', body);
    const base = { name: 'Bad', triggers: [{ type: 'start' }], actions: [notify] };
    const cases: [unknown, string][] = [
      [{ ...base, colour: 'red' }, 'colour is not a field here'],
      [
        { ...base, triggers: [{ type: 'time', at: '7:30' }] },
        'triggers.0.at must be a time HH:MM or HH:MM:SS',
      ],
      [
        { ...base, triggers: [{ type: 'time', at: '07:30', weekdays: [0] }] },
        'triggers.0.weekdays must list weekdays 1 (Monday) to 7 (Sunday)',
      ],
      [
        { ...base, triggers: [{ type: 'sunny' }] },
        'triggers.0.type must be one of time, cron, sun, state, event, availability, start',
      ],
      [{ ...base, triggers: [{ type: 'start', every: 1 }] }, 'triggers.0.every is not a field here'],
      [
        { ...base, triggers: [{ type: 'cron', expression: '0 0 30 2 *' }] },
        'triggers.0.expression never fires',
      ],
      [
        { ...base, triggers: [{ type: 'cron', expression: '* * * *' }] },
        'triggers.0.expression must have 5 fields, or 6 with seconds first',
      ],
      [
        { ...base, triggers: [{ type: 'cron', expression: '0 0 * * * * 2027' }] },
        'triggers.0.expression must have 5 fields, or 6 with seconds first',
      ],
      [{ ...base, triggers: [{ type: 'state', device_id: 'nope', property: 'x' }] }, 'Unknown device: nope'],
      [
        { ...base, triggers: [{ type: 'state', device_id: sensor(), property: 'colour' }] },
        'Unknown property of Bathroom sensor: colour',
      ],
      [
        { ...base, actions: [{ type: 'device', device_id: sensor(), state: { humidity: 10 } }] },
        'humidity of Bathroom sensor cannot be set',
      ],
      [
        { ...base, actions: [{ type: 'device', device_id: fan(), state: { speed: 3 } }] },
        'Unknown property of Bathroom fan: speed',
      ],
      [
        { ...base, actions: [{ type: 'wait', seconds: 0 }] },
        'actions.0.seconds must be a whole number of seconds from 1 to 86400',
      ],
      [{ ...base, actions: [{ type: 'scene', scene_id: 'nope' }] }, 'Unknown scene: nope'],
      [{ ...base, actions: [] }, 'Give at least one action, at most 50'],
      [{ ...base, mode: 'parallel' }, 'mode must be one of single, restart, queued'],
    ];
    for (const [body, error] of cases)
      expect(await post(body), JSON.stringify(body)).toEqual({ status: 400, body: { error } });
    // Every second is the fastest a cron can say, and it is taken: it runs once a second.
    const everySecond = await post({ ...base, triggers: [{ type: 'cron', expression: '* * * * * *' }] });
    expect(everySecond.status).toBe(201);
    // Cycles: itself, and two automations enabling each other.
    const a = await automation({ ...base, name: 'A' });
    expect(
      (
        await kit.call(kit.resident, 'PATCH', `/api/automations/${a.id}`, {
          actions: [{ type: 'automation', automation_id: a.id, enabled: true }],
        })
      ).body,
    ).toEqual({
      error: 'An automation cannot enable or disable itself',
    });
    const b = await automation({
      ...base,
      name: 'B',
      actions: [{ type: 'automation', automation_id: a.id, enabled: false }],
    });
    expect(
      (
        await kit.call(kit.resident, 'PATCH', `/api/automations/${a.id}`, {
          actions: [{ type: 'automation', automation_id: b.id, enabled: true }],
        })
      ).body,
    ).toEqual({
      error: 'Automations would enable each other in a circle: this automation → B → this automation',
    });
    await remove(a.id, b.id, everySecond.body.id);
  });

  it('10 000 automations: the list stays fast and pages through all of them', async () => {
    const storage = database.open();
    const at = nowIso();
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      id: `bulk-${String(i).padStart(5, '0')}`,
      name: `Bulk ${String(i).padStart(5, '0')}`,
      enabled: 0,
      mode: 'single',
      catch_up: 'skip',
      triggers: JSON.stringify([{ type: 'time', at: '07:00' }]),
      conditions: '[]',
      actions: JSON.stringify([notify]),
      owner_id: kit.resident.id,
      next_run: null,
      last_run_at: null,
      last_run_status: null,
      paused_reason: null,
      run_seq: 0,
      created_at: at,
      updated_at: at,
    }));
    for (let i = 0; i < rows.length; i += 500)
      await storage.db
        .insertInto('automations')
        .values(rows.slice(i, i + 500))
        .execute();
    await storage.close();
    // The server's own work for the first page (CPU time of this process, where the app runs): the
    // wall time also counts the rest of the suite's load on the machine (665 ms once, under it).
    const started = process.cpuUsage();
    const first = await kit.call(kit.admin, 'GET', '/api/automations');
    const spent = process.cpuUsage(started);
    expect(first.body.automations).toHaveLength(100);
    expect((spent.user + spent.system) / 1000).toBeLessThan(500);
    let cursor = first.body.next_cursor as string | null;
    const bulk = (page: { automations: { id: string }[] }) =>
      page.automations.filter((each) => each.id.startsWith('bulk-')).length;
    let seen = bulk(first.body);
    while (cursor) {
      const page = await kit.call(kit.admin, 'GET', `/api/automations?limit=100&cursor=${cursor}`);
      seen += bulk(page.body);
      cursor = page.body.next_cursor;
    }
    expect(seen).toBe(10_000);
    const cleanup = database.open();
    await cleanup.db.deleteFrom('automations').where('id', 'like', 'bulk-%').execute();
    await cleanup.close();
  }, 120_000);
});
