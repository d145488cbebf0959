import type { ActivityEntry, ActivityPage } from '@hearth/contracts';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { ACTIVITY_ERRORS as E } from './activity.errors.js';
import { type ActivityRecord, userActor } from './activity.log.js';
import { ActivityRepository } from './activity.repository.js';
import { ActivityRetention } from './activity.retention.js';

type UserRecord = Awaited<ReturnType<TestContext['user']>>;

const T0 = Date.UTC(2026, 5, 1, 12);
const MINUTE = 60_000;

// docs/activity.md#api on both databases: entries recorded through the log, read back through the API.
describe.each(testDatabases())('activity API on $name', ({ create }) => {
  const t = useTestApp({ database: create });
  let ada: UserRecord;
  let bob: UserRecord;
  let carol: UserRecord;

  /** 250 entries a minute apart, T0 on: Ada and Bob in turn, every 10th a sign-in, devices d0–d4. */
  beforeAll(async () => {
    ada = await t.user('resident');
    bob = await t.user('user');
    carol = await t.user('admin');
    for (let n = 0; n < 250; n++) {
      const who = n % 2 === 0 ? ada : bob;
      const entry: ActivityRecord =
        n % 10 === 0
          ? {
              actor: userActor(who),
              kind: 'sign_in',
              result: n % 20 === 0 ? 'ok' : 'refused',
              detail: { email: who.email },
            }
          : {
              actor: userActor(who),
              kind: 'device.command',
              result: 'ok',
              device_id: `d${n % 5}`,
              room_id: n % 5 === 0 ? 'kitchen' : 'hall',
              detail: { state: { on: n % 3 === 0 }, n },
            };
      t.hearth.activity.record({ ...entry, at: T0 + n * MINUTE, ip: '192.0.2.7', client: 'Test/1.0' });
    }
    t.hearth.activity.record({
      actor: { type: 'system', label: 'Hearth' },
      kind: 'device.offline',
      result: 'ok',
      device_id: 'd1',
      at: T0 + 250 * MINUTE,
    });
    await t.hearth.activity.flush();
  });

  const page = async (user: UserRecord, query: string) => {
    const answer = await t.call(user, 'GET', `/api/activity${query}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body as ActivityPage;
  };
  /** Every entry of a query, following next_cursor. */
  const all = async (user: UserRecord, query: string) => {
    const entries: ActivityEntry[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const sep = query ? '&' : '?';
      const answer: ActivityPage = await page(
        user,
        cursor ? `${query}${sep}cursor=${encodeURIComponent(cursor)}` : query,
      );
      entries.push(...answer.entries);
      cursor = answer.next_cursor;
      pages++;
    } while (cursor);
    return { entries, pages };
  };
  const inRange = `?from=${new Date(T0).toISOString()}&to=${T0 + 300 * MINUTE}`;

  it('answers 100 entries newest first with a cursor to the next, and pages through all without repeats', async () => {
    const first = await page(ada, inRange);
    expect(first.entries).toHaveLength(100);
    expect(first.entries[0]).toMatchObject({
      kind: 'device.offline',
      actor: { type: 'system', label: 'Hearth' },
    });
    expect(first.entries[1]).toMatchObject({
      at: new Date(T0 + 249 * MINUTE).toISOString(),
      actor: { type: 'user', id: bob.id, label: `${bob.firstName} ${bob.lastName}` },
      kind: 'device.command',
      device_id: 'd4',
      room_id: 'hall',
      ip: '192.0.2.7',
      client: 'Test/1.0',
      detail: { state: { on: true }, n: 249 },
      result: 'ok',
    });
    expect(typeof first.next_cursor).toBe('string');
    const { entries, pages } = await all(ada, inRange);
    expect(pages).toBe(3);
    expect(entries).toHaveLength(251);
    expect(new Set(entries.map((e) => e.id)).size).toBe(251);
    const times = entries.map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('filters by person, device, room, kind and time, together', async () => {
    const byBob = (await all(ada, `${inRange}&actor=${bob.id}`)).entries;
    expect(byBob).toHaveLength(125);
    expect(byBob.every((e) => e.actor.id === bob.id)).toBe(true);

    const system = (await all(ada, `${inRange}&actor=system`)).entries;
    expect(system.map((e) => e.kind)).toEqual(['device.offline']);

    const d1 = (await all(ada, `${inRange}&device_id=d1`)).entries;
    expect(d1.every((e) => e.device_id === 'd1')).toBe(true);
    expect(d1).toHaveLength(51); // n ≡ 1 (mod 5) of 250, none a sign-in, and the offline entry

    const kitchen = (await all(ada, `${inRange}&room_id=kitchen`)).entries;
    expect(kitchen.every((e) => e.room_id === 'kitchen' && e.device_id === 'd0')).toBe(true);
    expect(kitchen).toHaveLength(25);

    const signIns = (await all(ada, `${inRange}&kind=sign_in`)).entries;
    expect(signIns).toHaveLength(25);
    expect(signIns.filter((e) => e.result === 'refused')).toHaveLength(12);

    const window = `?from=${T0 + 10 * MINUTE}&to=${new Date(T0 + 20 * MINUTE).toISOString()}`;
    const tenMinutes = (await all(ada, window)).entries;
    expect(tenMinutes.map((e) => e.detail.n ?? e.kind)).toEqual([
      19,
      18,
      17,
      16,
      15,
      14,
      13,
      12,
      11,
      'sign_in',
    ]);

    const combined = (await all(ada, `${window}&actor=${ada.id}&kind=device.command`)).entries;
    expect(combined.map((e) => e.detail.n)).toEqual([18, 16, 14, 12]);
  });

  it('shows a user only their own entries, whatever they ask for; residents and admins everything', async () => {
    const own = (await all(bob, inRange)).entries;
    expect(own).toHaveLength(125);
    expect(own.every((e) => e.actor.id === bob.id)).toBe(true);
    expect((await page(bob, `${inRange}&actor=${ada.id}`)).entries).toEqual([]);
    expect((await page(bob, `${inRange}&actor=system`)).entries).toEqual([]);
    expect((await all(carol, inRange)).entries).toHaveLength(251);
    expect((await t.call(undefined, 'GET', '/api/activity')).status).toBe(401);
    expect((await t.call(undefined, 'GET', '/api/activity/export')).status).toBe(401);
  });

  it.each([
    ['?kind=dance', E.kind],
    ['?kind=sign_in&kind=device.command', 'kind must be given once'],
    ['?from=yesterday', E.from],
    ['?to=2026-13-45x', E.to],
    [`?from=${T0}&to=${T0}`, E.range],
    ['?cursor=not-one', E.cursor],
    ['?limit=0', E.limit],
    ['?limit=101', E.limit],
    [`?actor=${'x'.repeat(201)}`, E.tooLong('actor')],
  ])('refuses %s with 400 and says why', async (query, message) => {
    const answer = await t.call(ada, 'GET', `/api/activity${query}`);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(message);
    // The export takes the same filters (no cursor or limit) and refuses them the same way.
    if (!/cursor|limit/.test(query)) {
      const exported = await t.call(ada, 'GET', `/api/activity/export${query}`);
      expect(exported.status).toBe(400);
      expect(exported.body.error).toBe(message);
    }
  });

  it('exports the same entries as CSV: a header, RFC 4180 quoting, formulas defused', async () => {
    t.hearth.activity.record({
      actor: { type: 'user', id: 'mallory', label: '=HYPERLINK("http://evil","click")' },
      kind: 'sign_in',
      result: 'refused',
      client: 'Agent, "quoted"',
      detail: { email: '+31@example.com' },
      at: T0 + 260 * MINUTE,
    });
    const response = await t.app.inject({
      url: `/api/activity/export?from=${T0 + 240 * MINUTE}&to=${T0 + 300 * MINUTE}`,
      headers: { authorization: `Bearer ${await t.tokenFor(ada)}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="hearth-activity-.*\.csv"$/,
    );
    const lines = response.body.split('\r\n');
    expect(lines[0]).toBe('time,actor_type,actor_id,actor,ip,client,kind,device_id,room_id,result,detail');
    expect(lines[1]).toBe(
      `${new Date(T0 + 260 * MINUTE).toISOString()},user,mallory,"'=HYPERLINK(""http://evil"",""click"")",,"Agent, ""quoted""",sign_in,,,refused,"{""email"":""+31@example.com""}"`,
    );
    expect(lines[2]).toBe(
      `${new Date(T0 + 250 * MINUTE).toISOString()},system,,Hearth,,,device.offline,d1,,ok,`,
    );
    expect(lines[3]).toBe(
      `${new Date(T0 + 249 * MINUTE).toISOString()},user,${bob.id},${bob.firstName} ${bob.lastName},192.0.2.7,Test/1.0,device.command,d4,hall,ok,"{""state"":{""on"":true},""n"":249}"`,
    );
    expect(lines).toHaveLength(1 + 12 + 1); // header, 240–249 (10), 250, 260, and the empty tail
    expect(lines.at(-1)).toBe('');

    const bobs = await t.app.inject({
      url: '/api/activity/export',
      headers: { authorization: `Bearer ${await t.tokenFor(bob)}` },
    });
    const rows = bobs.body.trim().split('\r\n').slice(1);
    expect(rows).toHaveLength(125);
    expect(rows.every((row) => row.split(',')[2] === bob.id)).toBe(true);
  });

  it('prunes entries older than the retention, a step at a time, and keeps the rest', async () => {
    const repository = new ActivityRepository(t.hearth.storage.db);
    const now = T0 + 100 * MINUTE + 90 * 86_400_000;
    const retention = new ActivityRetention({
      repository,
      log: pino({ level: 'silent' }),
      days: 90,
      now: () => now,
      stepRows: 30,
    });
    expect(await retention.step()).toBe(30);
    expect(await retention.pruneAll()).toBe(70);
    const left = (await all(carol, inRange)).entries;
    expect(left.at(-1)?.at).toBe(new Date(T0 + 100 * MINUTE).toISOString());
    expect(left).toHaveLength(152);
  });
});
