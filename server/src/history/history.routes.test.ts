import type { Device, HistoryAnswer, HistoryRawPoint } from '@hearth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessToken, createUser } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { TOO_MANY_REQUESTS } from '../http/rate-limit.js';
import { DAY } from './history.buckets.js';
import { HISTORY_ERRORS as E } from './history.errors.js';
import { HISTORY_LIMITS } from './history.queue.js';
import { HistoryRepository } from './history.repository.js';
import { FORMULA_ACTIONS, type RecordingHousehold, startRecordingHousehold } from './history-test-kit.js';

// docs/history.md on both databases: a scripted Zigbee2MQTT reports, Hearth records, the API answers.
describe.each(testDatabases())('history API on $name', ({ create }) => {
  let h: RecordingHousehold;
  let resident: string;
  let lamp: Device;
  let door: Device;
  let remote: Device;

  const get = async (url: string, token: string | null = resident) => {
    const response = await h.app.app.inject({
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    return { status: response.statusCode, body: response.body, json: () => response.json() };
  };
  const send = async (method: 'GET' | 'PUT', url: string, token: string, payload?: object) => {
    const response = await h.app.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });
    return { status: response.statusCode, body: response.json() };
  };
  const history = async (device: Device, property: string, extra = '') => {
    const answer = await get(`/api/history?device_id=${device.id}&property=${property}${extra}`);
    expect(answer.status, answer.body).toBe(200);
    return answer.json() as HistoryAnswer;
  };

  beforeAll(async () => {
    h = await startRecordingHousehold(await create());
    resident = h.resident;
    lamp = await h.byName('Lamp');
    door = await h.byName('Front door');
    remote = await h.byName('Remote');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('records numbers, on/off, enums and composite leaves, and skips repeats within the heartbeat', async () => {
    const from = Date.now();
    await h.report('Lamp', {
      state: 'ON',
      brightness: 10,
      effect: 'blink',
      color: { x: 0.3, y: 0.4 },
    });
    await h.until('Lamp', (d) => d.state.brightness === 10);
    // A repeat of the same values: nothing new is recorded.
    await h.report('Lamp', {
      state: 'ON',
      brightness: 10,
      effect: 'blink',
      color: { x: 0.3, y: 0.4 },
    });
    await h.report('Lamp', { state: 'OFF', brightness: 20, color: { x: 0.3, y: 0.5 } });
    await h.until('Lamp', (d) => d.state.brightness === 20);
    await h.recorded();
    const range = `&from=${from}&to=${Date.now() + 1}`;
    const brightness = await history(lamp, 'brightness', range);
    expect(brightness).toMatchObject({
      device_id: lamp.id,
      property: 'brightness',
      resolution: 'raw',
      type: 'number',
    });
    expect(brightness.points.map((p) => ('v' in p ? p.v : undefined))).toEqual([10, 20]);
    expect((await history(lamp, 'state', range)).points.map((p) => ('v' in p ? p.v : undefined))).toEqual([
      true,
      false,
    ]);
    expect((await history(lamp, 'effect', range)).points.map((p) => ('v' in p ? p.v : undefined))).toEqual([
      'blink',
    ]);
    expect((await history(lamp, 'color.y', range)).points.map((p) => ('v' in p ? p.v : undefined))).toEqual([
      0.4, 0.5,
    ]);
    const times = brightness.points.map((p) => p.t);
    expect(times[0]).toBeGreaterThanOrEqual(from);
    expect(times[1]).toBeGreaterThanOrEqual(times[0]!);
  });

  it('answers an empty history for a property nothing was recorded of yet, and 404 for unknown ones', async () => {
    expect((await history(door, 'device_temperature')).points).toEqual([]);
    const unknownProperty = await get(`/api/history?device_id=${door.id}&property=colour`);
    expect([unknownProperty.status, unknownProperty.json()]).toEqual([404, { error: E.propertyNotFound }]);
    const unknownDevice = await get('/api/history?device_id=nope&property=battery');
    expect([unknownDevice.status, unknownDevice.json()]).toEqual([404, { error: E.deviceNotFound }]);
  });

  it('refuses bad parameters with 400 and the reason', async () => {
    const cases: [string, string][] = [
      [`property=battery`, E.deviceId],
      [`device_id=${door.id}`, E.property],
      [`device_id=${door.id}&property=battery&from=yesterday`, E.from],
      [`device_id=${door.id}&property=battery&to=12:00`, E.to],
      [`device_id=${door.id}&property=battery&from=2000&to=1000`, E.range],
      [`device_id=${door.id}&property=battery&from=1000&to=1000`, E.range],
      [`device_id=${door.id}&property=battery&points=0`, E.points],
      [`device_id=${door.id}&property=battery&points=1.5`, E.points],
      [`device_id=${door.id}&property=battery&points=100000`, E.points],
    ];
    for (const [query, error] of cases) {
      const answer = await get(`/api/history?${query}`);
      expect([answer.status, answer.json()], query).toEqual([400, { error }]);
    }
    const exportBad = await get(
      `/api/history/export?device_id=${door.id}&property=battery&from=2000&to=1000`,
    );
    expect([exportBad.status, exportBad.json()]).toEqual([400, { error: E.range }]);
  });

  it('accepts ISO-8601 and epoch ms alike', async () => {
    const to = Date.now() + 1000;
    const from = to - 3_600_000;
    const iso = await history(
      lamp,
      'brightness',
      `&from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`,
    );
    const ms = await history(lamp, 'brightness', `&from=${from}&to=${to}`);
    expect(iso.points).toEqual(ms.points);
    expect(ms.points.length).toBeGreaterThan(0);
  });

  it('lets whoever sees devices see history: residents and admins, not a user without access rules or strangers', async () => {
    const url = `/api/history?device_id=${lamp.id}&property=brightness`;
    expect((await get(url, null)).status).toBe(401);
    // docs/access.md: to a user who may not view it, the device does not exist.
    expect((await get(url, await h.token('user'))).status).toBe(404);
    expect((await get(url, await h.token('admin'))).status).toBe(200);
    const exportUrl = `/api/history/export?device_id=${lamp.id}&property=brightness`;
    expect((await get(exportUrl, null)).status).toBe(401);
    expect((await get(exportUrl, await h.token('user'))).status).toBe(404);
    expect((await get(`/api/history/exclusions/${lamp.id}`, await h.token('user'))).status).toBe(403);
  });

  it("follows a `user`'s access rules: history of the one device shared with them, none of another", async () => {
    const person = await createUser(h.app, 'user');
    const token = await accessToken(h.app, person);
    const admin = await h.token('admin');
    const lampUrl = `/api/history?device_id=${lamp.id}&property=brightness`;
    const doorUrl = `/api/history?device_id=${door.id}&property=contact`;
    expect((await get(lampUrl, token)).status).toBe(404);
    const shared = await h.app.app.inject({
      method: 'PUT',
      url: `/api/access/${person.id}`,
      headers: { authorization: `Bearer ${admin}` },
      payload: { rooms: {}, devices: { [lamp.id]: 'view' } },
    });
    expect(shared.statusCode, shared.body).toBe(200);
    const answer = await get(lampUrl, token);
    expect(answer.status, answer.body).toBe(200);
    expect((answer.json() as HistoryAnswer).points).toEqual((await history(lamp, 'brightness')).points);
    expect((await get(`/api/history/export?device_id=${lamp.id}&property=brightness`, token)).status).toBe(
      200,
    );
    // The door stays out of reach, and recording settings stay with residents and admins.
    expect((await get(doorUrl, token)).status).toBe(404);
    expect((await get(`/api/history/exclusions/${lamp.id}`, token)).status).toBe(403);
    // Taking the rule away takes the history away with it.
    await h.app.app.inject({
      method: 'PUT',
      url: `/api/access/${person.id}`,
      headers: { authorization: `Bearer ${admin}` },
      payload: { rooms: {}, devices: {} },
    });
    expect((await get(lampUrl, token)).status).toBe(404);
  });

  it('exports CSV: time,value, oldest first', async () => {
    const answer = await get(`/api/history/export?device_id=${lamp.id}&property=brightness&from=0`);
    expect(answer.status).toBe(200);
    const lines = answer.body.trim().split('\n');
    expect(lines[0]).toBe('time,value');
    expect(lines.slice(1).map((line) => Number(line.split(',')[1]))).toEqual([10, 20]);
    expect(Date.parse(lines[1]!.split(',')[0]!)).toBeGreaterThan(0);
  });

  it('stops recording an excluded property or device, and says so', async () => {
    const put = (body: unknown) =>
      h.app.app.inject({
        method: 'PUT',
        url: `/api/history/exclusions/${door.id}`,
        headers: { authorization: `Bearer ${resident}` },
        payload: body as object,
      });
    const excluded = await put({ device: false, properties: ['battery'] });
    expect([excluded.statusCode, excluded.json()]).toEqual([
      200,
      { device_id: door.id, device: false, properties: ['battery'] },
    ]);
    const bad = await put({ device: 'yes', properties: [] });
    expect([bad.statusCode, bad.json()]).toEqual([400, { error: E.exclusionDevice }]);
    const from = Date.now();
    await h.report('Front door', { contact: true, battery: 80 });
    await h.until('Front door', (d) => d.state.battery === 80);
    await h.recorded();
    expect((await history(door, 'battery', `&from=${from}`)).points).toEqual([]);
    expect((await history(door, 'contact', `&from=${from}`)).points.map((p) => ('v' in p ? p.v : 0))).toEqual(
      [true],
    );

    await put({ device: true, properties: [] });
    expect((await get(`/api/history/exclusions/${door.id}`)).json()).toEqual({
      device_id: door.id,
      device: true,
      properties: [],
    });
    const later = Date.now();
    await h.report('Front door', { contact: false, battery: 70 });
    await h.until('Front door', (d) => d.state.battery === 70);
    await h.recorded();
    expect((await history(door, 'contact', `&from=${later}`)).points).toEqual([]);
    await put({ device: false, properties: [] });
  });

  it('marks a gap where the device went offline, and records its first reading after it', async () => {
    const from = Date.now();
    await h.report('Lamp', { brightness: 30 });
    await h.report('Lamp/availability', { state: 'offline' });
    await h.until('Lamp', (d) => d.online === false);
    await h.report('Lamp/availability', { state: 'online' });
    await h.report('Lamp', { brightness: 30 });
    await h.until('Lamp', (d) => d.online);
    await h.recorded();
    const points = (await history(lamp, 'brightness', `&from=${from}&to=${Date.now() + 1}`)).points;
    expect(points.map((p) => ('v' in p ? p.v : undefined))).toEqual([30, null, 30]);
  });

  it('answers two and more gaps in a row once: a device that went offline again before reporting', async () => {
    const from = Date.now();
    await h.report('Lamp', { brightness: 40 });
    await h.until('Lamp', (d) => d.state.brightness === 40);
    for (let i = 0; i < 3; i++) {
      await h.report('Lamp/availability', { state: 'offline' });
      await h.until('Lamp', (d) => d.online === false);
      await h.report('Lamp/availability', { state: 'online' });
      await h.until('Lamp', (d) => d.online);
    }
    await h.report('Lamp', { brightness: 41 });
    await h.until('Lamp', (d) => d.state.brightness === 41);
    await h.recorded();
    // The tile's small chart asks for 48 points (docs/history.md#sparklines).
    const points = (await history(lamp, 'brightness', `&from=${from}&to=${Date.now() + 1}&points=48`))
      .points as HistoryRawPoint[];
    expect(points.map((p) => p.v)).toEqual([40, null, 41]);
  });

  it('records an enum value only when its list names it, warns once per device and property, and exports text cells as text', async () => {
    const from = Date.now();
    for (const action of ['single', ...FORMULA_ACTIONS, '=EVIL()', '=WORSE()']) {
      await h.report('Remote', { action });
      await h.until('Remote', (d) => d.state.action === action);
    }
    await h.report('Front door', { device_temperature: -3 });
    await h.until('Front door', (d) => d.state.device_temperature === -3);
    await h.recorded();
    const range = `&from=${from}&to=${Date.now() + 1}`;
    expect((await history(remote, 'action', range)).points.map((p) => ('v' in p ? p.v : undefined))).toEqual([
      'single',
      ...FORMULA_ACTIONS,
    ]);
    const warnings = h.app.logs.lines.filter((line) => line.includes('not in its list'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ device_id: remote.id, property: 'action' });

    const csv = await get(`/api/history/export?device_id=${remote.id}&property=action${range}`);
    expect(csv.status).toBe(200);
    expect(
      csv.body
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.slice(line.indexOf(',') + 1)),
    ).toEqual(['single', `"'=HYPERLINK(""http://example.test/"",""x"")"`, "'+1", "'-1", "'@SUM(A1)"]);
    // Numbers stay numbers, a minus sign included.
    const temperature = await get(
      `/api/history/export?device_id=${door.id}&property=device_temperature${range}`,
    );
    expect(
      temperature.body
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.split(',')[1]),
    ).toEqual(['-3']);
  });

  it('keeps recording settings within reach: 404 outside it, 403 with view only, and logs each change', async () => {
    const admin = await createUser(h.app, 'admin');
    const adminToken = await accessToken(h.app, admin);
    const narrowed = await createUser(h.app, 'resident');
    const token = await accessToken(h.app, narrowed);
    const rules = { rooms: {}, devices: { [door.id]: 'none', [lamp.id]: 'view' } };
    expect((await send('PUT', `/api/access/${narrowed.id}`, adminToken, rules)).status).toBe(200);
    const url = (device: Device) => `/api/history/exclusions/${device.id}`;
    const everything = { device: true, properties: [] };

    // Outside their reach the door does not exist, and it goes on being recorded.
    expect(await send('GET', url(door), token)).toEqual({ status: 404, body: { error: E.deviceNotFound } });
    expect(await send('PUT', url(door), token, everything)).toEqual({
      status: 404,
      body: { error: E.deviceNotFound },
    });
    // Viewing the lamp lets them read its settings, not change them.
    expect((await send('GET', url(lamp), token)).status).toBe(200);
    expect(await send('PUT', url(lamp), token, everything)).toEqual({
      status: 403,
      body: { error: E.viewOnly },
    });
    const untouched = { device: false, properties: [] };
    expect((await send('GET', url(door), adminToken)).body).toMatchObject(untouched);
    expect((await send('GET', url(lamp), adminToken)).body).toMatchObject(untouched);

    const changed = await send('PUT', url(lamp), adminToken, { device: false, properties: ['effect'] });
    expect(changed).toEqual({
      status: 200,
      body: { device_id: lamp.id, device: false, properties: ['effect'] },
    });
    await send('PUT', url(lamp), adminToken, untouched);

    await h.app.activity.flush();
    const entries = async (actor: string) =>
      (await send('GET', `/api/activity?kind=history.exclusions&actor=${actor}`, adminToken)).body.entries;
    expect(await entries(narrowed.id)).toMatchObject([
      { result: 'refused', device_id: lamp.id, detail: { ...everything, reason: E.viewOnly } },
      { result: 'refused', device_id: door.id, detail: { ...everything, reason: E.deviceNotFound } },
    ]);
    expect(await entries(admin.id)).toMatchObject([
      { result: 'ok', device_id: lamp.id, detail: untouched },
      { result: 'ok', device_id: lamp.id, detail: { device: false, properties: ['effect'] } },
    ]);
  });

  it(`lets one person run ${HISTORY_LIMITS.running} history requests at once and queue ${HISTORY_LIMITS.waiting}; beyond, 429 with Retry-After; every accepted one is answered`, async () => {
    // Three thousand readings two days ago, written as the recorder would.
    const repository = new HistoryRepository(h.app.storage.db);
    const [series] = await repository.ensureSeries([
      { device_id: door.id, property: 'device_temperature', type: 'number' },
    ]);
    const start = Date.now() - 2 * DAY;
    await repository.insertRaw(
      Array.from({ length: 3000 }, (_, i) => ({ series_id: series!.id, t: start + i * 1000, v: i % 40 })),
    );
    const person = await createUser(h.app, 'user');
    const token = await accessToken(h.app, person);
    const admin = await h.token('admin');
    const shared = await send('PUT', `/api/access/${person.id}`, admin, {
      rooms: {},
      devices: { [door.id]: 'view' },
    });
    expect(shared.status).toBe(200);
    const url = `/api/history?device_id=${door.id}&property=device_temperature&from=${start}&to=${start + 3_000_000}&points=20000`;

    const burst = await Promise.all(
      Array.from({ length: 40 }, () =>
        h.app.app.inject({ url, headers: { authorization: `Bearer ${token}` } }),
      ),
    );
    const refused = burst.filter((r) => r.statusCode === 429);
    const answered = burst.filter((r) => r.statusCode === 200);
    expect(refused.length + answered.length).toBe(40);
    expect(refused.length).toBeGreaterThan(0);
    expect(answered.length).toBeGreaterThanOrEqual(HISTORY_LIMITS.running + HISTORY_LIMITS.waiting);
    const { min, max } = HISTORY_LIMITS.retryAfter;
    for (const response of refused) {
      const seconds = Number(response.headers['retry-after']);
      expect(seconds).toBeGreaterThanOrEqual(min);
      expect(seconds).toBeLessThanOrEqual(max);
      expect(response.json()).toEqual({ error: TOO_MANY_REQUESTS, retry_after: seconds });
    }
    for (const response of answered) {
      const answer = response.json() as HistoryAnswer;
      expect([answer.resolution, answer.points.length]).toEqual(['raw', 3000]);
    }
    // Once the burst is over, the person's next chart is answered at once.
    const again = await h.app.app.inject({ url, headers: { authorization: `Bearer ${token}` } });
    expect([again.statusCode, (again.json() as HistoryAnswer).points.length]).toEqual([200, 3000]);
  });

  it('exports every reading, however many share a millisecond at the end of a page', async () => {
    const repository = new HistoryRepository(h.app.storage.db);
    const [series] = await repository.ensureSeries([
      { device_id: door.id, property: 'battery', type: 'number' },
    ]);
    // The 20 around the 5000th share a millisecond (pages end there), and 1500, more than a page, another.
    const start = Date.now() - 3 * DAY;
    const times = [
      ...Array.from({ length: 4990 }, (_, i) => start + i),
      ...Array.from({ length: 20 }, () => start + 5000),
      ...Array.from({ length: 1500 }, () => start + 6000),
      start + 7000,
    ];
    await repository.insertRaw(times.map((t, i) => ({ series_id: series!.id, t, v: i })));
    const csv = await get(
      `/api/history/export?device_id=${door.id}&property=battery&from=${start}&to=${start + 8000}`,
    );
    expect(csv.status).toBe(200);
    const values = csv.body
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => Number(line.split(',')[1]));
    expect(values.length).toBe(times.length);
    expect(new Set(values).size).toBe(times.length);
  });
});
