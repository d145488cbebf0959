import type { AddressInfo } from 'node:net';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessToken } from '../../test/app.js';
import { type TestDatabase, testDatabases } from '../../test/databases.js';
import { eventually } from '../../test/wait.js';
import { type AutomationKit, startAutomationKit } from './automations-test-kit.js';

// docs/automations.md#live: changes and runs reach open pages over the device stream, residents'
// and admins' connections only (a `user` who may view devices does not hear of automations).

describe.each(testDatabases())('automation events on the stream on $name', ({ create }) => {
  let database: TestDatabase;
  let kit: AutomationKit;
  let url: string;
  beforeAll(async () => {
    database = await create();
    kit = await startAutomationKit(database);
    await kit.app.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(kit.app.app.server.address() as AddressInfo).port}/ws/devicehub`;
  }, 60_000);
  afterAll(async () => {
    await kit?.close();
    await database?.drop();
  });

  async function listen(token: string) {
    const client = await mqtt.connectAsync(url, {
      protocolVersion: 4,
      reconnectPeriod: 0,
      clientId: `auto-${crypto.randomUUID().slice(0, 8)}`,
      username: 'browser',
      password: token,
    });
    const topics: string[] = [];
    client.on('message', (topic, payload) => topics.push(`${topic} ${payload.toString()}`));
    await client.subscribeAsync(`${kit.prefix}/devicehub/events/#`);
    return { client, topics };
  }

  it('tells residents and admins of a new automation and its runs; a `user` hears nothing of them', async () => {
    const user = await kit.user('user');
    await kit.call(kit.admin, 'PUT', `/api/access/${user.id}`, {
      rooms: {},
      devices: { [kit.device('Bathroom fan').id]: 'view' },
    });
    const resident = await listen(await accessToken(kit.app, kit.resident));
    const plain = await listen(await accessToken(kit.app, user));
    const made = (
      await kit.call(kit.resident, 'POST', '/api/automations', {
        name: 'Told',
        triggers: [{ type: 'start' }],
        actions: [{ type: 'notify', to: 'household', title: 'Hi', body: 'There' }],
      })
    ).body;
    await kit.call(kit.resident, 'POST', `/api/automations/${made.id}/run`);
    const heard = await eventually(
      async () => resident.topics.filter((each) => each.includes('/events/automation.')),
      (list) => list.some((each) => each.includes('automation.run') && each.includes('"status":"done"')),
    );
    expect(heard[0]).toBe(
      `${kit.prefix}/devicehub/events/automation.changed {"id":"${made.id}","removed":false}`,
    );
    // The user's connection is open and hears device events, but none of automations.
    await kit.z2m.publish('Bathroom fan/availability', { state: 'online' });
    await eventually(
      async () => plain.topics.filter((each) => each.includes('device.upsert')),
      (list) => list.length > 0,
    );
    expect(plain.topics.filter((each) => each.includes('automation'))).toEqual([]);
    await resident.client.endAsync();
    await plain.client.endAsync();
  });
});
