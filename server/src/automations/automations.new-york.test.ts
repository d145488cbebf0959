import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '../../test/databases.js';
import { type AutomationKit, startAutomationKit } from './automations-test-kit.js';

// docs/automations.md#daylight-saving in America/New_York: 2026-03-08 (02:00 EST becomes 03:00
// EDT) and 2026-11-01 (02:00 EDT becomes 01:00 EST), times inside both changed hours.

describe.each(testDatabases())('America/New_York clock changes on $name', ({ create }) => {
  let database: TestDatabase;
  let kit: AutomationKit;
  beforeAll(async () => {
    database = await create();
    kit = await startAutomationKit(database, {
      at: '2026-03-07T12:00:00Z',
      env: { HOUSEHOLD_TIME_ZONE: 'America/New_York' },
    });
  }, 60_000);
  afterAll(async () => {
    await kit?.close();
    await database?.drop();
  });

  const notify = { type: 'notify', to: 'household', title: 'Ping', body: 'Ping' };
  const fires = async (id: string) =>
    (
      (await kit.call(kit.admin, 'GET', `/api/automations/${id}/runs`)).body.runs as {
        trigger: { fire_at: string };
      }[]
    )
      .map((run) => run.trigger.fire_at)
      .reverse();
  async function beatUntil(until: string, stepMs: number) {
    for (let at = kit.clock.now(); at <= Date.parse(until); at += stepMs) {
      kit.clock.set(at);
      await kit.tick();
    }
  }

  it('02:30 and 02:59:30 on 2026-03-08 run once, at the jump (07:00 UTC)', async () => {
    kit.clock.set('2026-03-08T05:00:00Z');
    const a = (
      await kit.call(kit.resident, 'POST', '/api/automations', {
        name: 'a',
        triggers: [{ type: 'time', at: '02:30' }],
        actions: [notify],
      })
    ).body;
    const b = (
      await kit.call(kit.resident, 'POST', '/api/automations', {
        name: 'b',
        triggers: [{ type: 'time', at: '02:59:30' }],
        actions: [notify],
      })
    ).body;
    await beatUntil('2026-03-08T08:00:00Z', 10 * 60_000);
    expect(await fires(a.id)).toEqual(['2026-03-08T07:00:00.000Z']);
    expect(await fires(b.id)).toEqual(['2026-03-08T07:00:00.000Z']);
    expect((await kit.call(kit.admin, 'GET', `/api/automations/${a.id}`)).body.next_run).toBe(
      '2026-03-09T06:30:00.000Z',
    );
  });

  it('01:30 on 2026-11-01 runs once, in the first pass of the repeated hour; an hourly schedule runs in both', async () => {
    kit.clock.set('2026-11-01T04:00:00Z');
    const once = (
      await kit.call(kit.resident, 'POST', '/api/automations', {
        name: 'once',
        triggers: [{ type: 'time', at: '01:30' }],
        actions: [notify],
      })
    ).body;
    const hourly = (
      await kit.call(kit.resident, 'POST', '/api/automations', {
        name: 'hourly',
        triggers: [{ type: 'cron', expression: '30 * * * *' }],
        actions: [notify],
      })
    ).body;
    await beatUntil('2026-11-01T08:00:00Z', 10 * 60_000);
    expect(await fires(once.id)).toEqual(['2026-11-01T05:30:00.000Z']);
    expect(await fires(hourly.id)).toEqual([
      '2026-11-01T04:30:00.000Z',
      '2026-11-01T05:30:00.000Z', // 01:30 EDT
      '2026-11-01T06:30:00.000Z', // 01:30 EST
      '2026-11-01T07:30:00.000Z',
    ]);
  });
});
