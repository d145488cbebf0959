import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/app.js';
import { postgresDatabase, type TestDatabase } from '../../test/databases.js';
import { serviceUrl } from '../../test/services.js';
import { eventually } from '../../test/wait.js';
import { type AutomationKit, humiditySensor, plug, startAutomationKit } from './automations-test-kit.js';

// docs/automations.md#several-instances: two instances on one PostgreSQL and Mosquitto (issue 37,
// acceptance 2). 100 automations due in the same second each run once, counted on the bus; an
// instance closed mid-wait leaves the run to the other, which finishes it once.

const postgres = serviceUrl('TEST_DATABASE_URL');
const mosquitto = serviceUrl('TEST_MQTT_URL');
if (!postgres || !mosquitto)
  console.warn('[skipped] automations on two instances: TEST_DATABASE_URL and TEST_MQTT_URL are needed');

describe.runIf(postgres && mosquitto)('automations on two instances', () => {
  let database: TestDatabase;
  let kit: AutomationKit;
  let other: TestApp;
  const PLUGS = 10;
  beforeAll(async () => {
    database = await postgresDatabase(postgres as string);
    kit = await startAutomationKit(database, {
      at: '2026-06-01T10:00:00Z',
      devices: [
        humiditySensor('Bathroom sensor', '0x00158d0001bb0001'),
        ...Array.from({ length: PLUGS }, (_, i) =>
          plug(`Plug ${i}`, `0x00158d0001bb01${String(i).padStart(2, '0')}`),
        ),
      ],
    });
    other = await kit.another();
  }, 60_000);
  afterAll(async () => {
    await other?.close();
    await kit?.close();
    await database?.drop();
  });

  it('100 automations due in the same second run once each: 100 commands on the bus', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) {
      const { body, status } = await kit.call(kit.resident, 'POST', '/api/automations', {
        name: `Noon ${i}`,
        triggers: [{ type: 'time', at: '12:30' }],
        actions: [{ type: 'device', device_id: kit.device(`Plug ${i % PLUGS}`).id, state: { state: 'ON' } }],
      });
      expect(status).toBe(201);
      ids.push(body.id);
    }
    kit.clock.set('2026-06-01T10:30:00Z');
    // Both instances beat at once, twice: every fire is claimed by one of them.
    await Promise.all([kit.tick(), other.automations.tick(), kit.tick(), other.automations.tick()]);
    const counts = await eventually(
      async () => Array.from({ length: PLUGS }, (_, i) => kit.sets(`Plug ${i}`).length),
      (list) => list.reduce((a, b) => a + b, 0) >= 100,
    );
    await Promise.all([kit.tick(), other.automations.tick()]);
    expect(counts).toEqual(Array(PLUGS).fill(100 / PLUGS));
    for (const id of ids) {
      const runs = (await kit.call(kit.admin, 'GET', `/api/automations/${id}/runs`)).body.runs;
      expect(runs.map((run: { status: string }) => run.status)).toEqual(['done']);
    }
    expect(Array.from({ length: PLUGS }, (_, i) => kit.sets(`Plug ${i}`).length)).toEqual(counts);
    for (const id of ids) await kit.call(kit.admin, 'DELETE', `/api/automations/${id}`);
  }, 60_000);

  it('an instance closed mid-wait: the other resumes the run at its deadline and finishes it once', async () => {
    kit.clock.set('2026-06-02T10:00:00Z');
    const { body: made } = await kit.call(kit.resident, 'POST', '/api/automations', {
      name: 'On, wait, off',
      triggers: [{ type: 'time', at: '23:00' }],
      actions: [
        { type: 'device', device_id: kit.device('Plug 0').id, state: { state: 'ON' } },
        { type: 'wait', seconds: 60 },
        { type: 'device', device_id: kit.device('Plug 0').id, state: { state: 'OFF' } },
      ],
    });
    const before = kit.sets('Plug 0').length;
    await kit.call(kit.admin, 'POST', `/api/automations/${made.id}/run`);
    const runs = async () => (await kit.call(kit.admin, 'GET', `/api/automations/${made.id}/runs`)).body.runs;
    await eventually(runs, (list) => list[0]?.status === 'waiting');
    // The instance that started it goes away; the other is still up.
    await kit.app.close();
    kit.clock.set('2026-06-02T10:01:00Z');
    await other.automations.tick();
    await other.automations.tick();
    const read = async () =>
      (
        await other.app.inject({
          method: 'GET',
          url: `/api/automations/${made.id}/runs`,
          headers: { authorization: `Bearer ${(await other.sessions.issue(kit.admin)).access_token}` },
        })
      ).json().runs;
    const done = await eventually(read, (list) => list[0]?.status === 'done');
    expect(done).toHaveLength(1);
    await eventually(
      async () => kit.sets('Plug 0').slice(before),
      (sent) => JSON.stringify(sent) === JSON.stringify([{ state: 'ON' }, { state: 'OFF' }]),
    );
  }, 60_000);
});
