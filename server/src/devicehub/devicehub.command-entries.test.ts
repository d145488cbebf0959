import type { ActivityEntry, Device } from '@hearth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessToken, createUser } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { openStream, type StreamView } from '../../test/device-stream.js';
import { eventually } from '../../test/wait.js';
import type { UserRecord } from '../users/index.js';
import { byName, useHousehold } from './devicehub-test-kit.js';

// docs/activity.md#kinds (issue 32 item 7): a device.command entry holds the command that was
// sent (keys the device does not take are not sent, so not recorded), over REST, the stream and a
// guest pass alike; and nothing in a command can blank the entry or push the rest past the cut.

/** A value nested `depth` deep, as JSON text: `{"a":{"a":…{"on":true}}}` (too deep for JSON.stringify). */
const nested = (depth: number) => `${'{"a":'.repeat(depth)}{"on":true}${'}'.repeat(depth)}`;

describe.each(testDatabases())('device command entries on $name', ({ create }) => {
  const h = useHousehold({ database: create, browsers: true });
  let admin: UserRecord;
  let token: string;
  let lamp: Device;
  let stream: StreamView | undefined;
  afterAll(() => stream?.end());

  beforeAll(async () => {
    admin = await createUser(h.app, 'admin');
    token = await accessToken(h.app, admin);
    lamp = byName(await h.list(), 'Living room/Lamp')!;
  });

  let since = '';
  const mark = () => {
    since = new Date().toISOString();
  };
  /** The device.command entries recorded since `mark()`, oldest first. */
  const entries = async (): Promise<ActivityEntry[]> => {
    await h.app.activity.flush();
    const answer = await h.call('GET', `/api/activity?kind=device.command&from=${since}`, undefined, token);
    expect(answer.statusCode).toBe(200);
    return (answer.json().entries as ActivityEntry[]).reverse();
  };
  const sent = () => h.z2m.sets.at(-1)?.payload;
  /** A command given as JSON text. */
  const commandText = (json: string) =>
    h.app.app.inject({
      method: 'POST',
      url: `/api/devicehub/devices/${lamp.id}/commands`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: json,
    });

  it('records over REST what was sent: not the keys the device does not take, the input under its id', async () => {
    mark();
    const plain = await h.command(lamp.id, { state: { on: true, bogus: 1, ['k'.repeat(5000)]: 2 } }, token);
    expect(plain.statusCode).toBe(200);
    const slider = await h.command(
      lamp.id,
      { input: { id: 'brightness', value: 128 }, state: { brightness: 100, on: true, linkquality: 5 } },
      token,
    );
    expect(slider.statusCode).toBe(200);
    await eventually(
      async () => sent(),
      (payload) => JSON.stringify(payload) === '{"brightness":128,"state":"ON"}',
    );
    expect((await entries()).map((entry) => [entry.result, entry.detail])).toEqual([
      ['ok', { name: 'Living room/Lamp', state: { on: true } }],
      ['ok', { name: 'Living room/Lamp', state: { brightness: 128, on: true } }],
    ]);
  });

  it('keeps the entry whole when a command carries a key nested 10 000 deep or a 5 000-character key', async () => {
    mark();
    const deep = await commandText(`{"state":{"on":false,"deep":${nested(10_000)}}}`);
    expect(deep.statusCode).toBe(200);
    // Refused (out of range), so recorded as asked: bounded, the name and the reason kept.
    const refused = await commandText(
      `{"state":{"${'k'.repeat(5000)}":1,"deep":${nested(10_000)},"brightness":9999}}`,
    );
    expect(refused.statusCode).toBe(400);
    const [ok, refusal] = await entries();
    expect([ok?.result, ok?.detail]).toEqual(['ok', { name: 'Living room/Lamp', state: { on: false } }]);
    expect(refusal).toMatchObject({
      result: 'refused',
      detail: {
        name: 'Living room/Lamp',
        state: { brightness: 9999 },
        reason: 'Invalid command payload: brightness must be between 0 and 254',
      },
    });
    expect(JSON.stringify(refusal!.detail).length).toBeLessThanOrEqual(4000);
  });

  it('records over the stream what was sent, and refuses a device id with a control character', async () => {
    const origin = h.wsUrl.replace(/^ws/, 'http').replace(/\/ws\/devicehub$/, '');
    stream = await openStream(origin, h.prefix, token);
    mark();
    await stream.publish('device.set', { device_id: lamp.id, state: { brightness: 40, bogus: true } });
    await stream.publish('device.set', { device_id: '\u0000', state: { on: true } });
    await eventually(
      async () => stream!.refusals,
      (refusals) => refusals.length === 1,
    );
    expect(stream.refusals).toEqual([
      { kind: 'refused', device_id: '', error: 'device_id must not contain control characters' },
    ]);
    const recorded = await eventually(entries, (found) => found.length === 2);
    // The refusal may be recorded first: the command waits for the bus.
    recorded.sort((a, b) => a.result.localeCompare(b.result));
    expect(recorded.map((entry) => [entry.result, entry.device_id ?? null, entry.detail])).toEqual([
      ['ok', lamp.id, { name: 'Living room/Lamp', state: { brightness: 40 }, via: 'stream' }],
      [
        'refused',
        null,
        { state: { on: true }, via: 'stream', reason: 'device_id must not contain control characters' },
      ],
    ]);
  });

  it("records a guest pass's command as sent", async () => {
    const created = await h.call(
      'POST',
      '/api/passes',
      {
        label: 'Cleaner',
        devices: [lamp.id],
        level: 'control',
        ends_at: new Date(Date.now() + 3_600_000).toISOString(),
      },
      token,
    );
    expect(created.statusCode).toBe(201);
    const pass = created.json().url.split('/pass/')[1];
    mark();
    const answer = await h.app.app.inject({
      method: 'POST',
      url: `/api/pass/${pass}/devices/${lamp.id}/commands`,
      payload: { state: { on: true, bogus: 1 } },
    });
    expect(answer.statusCode).toBe(200);
    expect((await entries()).map((entry) => [entry.actor.type, entry.result, entry.detail])).toEqual([
      ['pass', 'ok', { name: 'Living room/Lamp', state: { on: true } }],
    ]);
  });
});
