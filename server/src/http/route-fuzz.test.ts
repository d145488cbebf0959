import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ActivityEntry } from '@hearth/contracts';
import fc from 'fast-check';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { useTestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { eventually } from '../../test/wait.js';
import type { UserRecord } from '../users/index.js';

// Acceptance 1 of issue 32, item 3 (docs/api.md#text): walking Fastify's route table, a control
// character in every path parameter, every query parameter and every text (and key) of every body
// is answered 400 naming the field, signed in as an admin, or refused by the route's guard when
// signed out; never a 500. Afterwards Hearth still answers and the activity log still writes.

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** C0 controls and DEL; tab, line feed and carriage return are text a body may carry. */
const CONTROLS = [...Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)), '\u007f'];
const IN_TEXT = CONTROLS.filter((c) => !'\t\n\r'.includes(c));

/** Some text with a control character somewhere in it (`among`: which ones). */
const controlText = (among: string[]) =>
  fc
    .tuple(fc.string({ maxLength: 6 }), fc.constantFrom(...among), fc.string({ maxLength: 6 }))
    .map(([before, control, after]) => `${before}${control}${after}`);

/** Where text goes in a body: keys, `[]` for a list's item, `{}` for a record's key. */
type Segment = string | '[]' | '{}';

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  options?: z.ZodType[];
  element?: z.ZodType;
  valueType?: z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
  items?: z.ZodType[];
  getter?: () => z.ZodType;
};
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Every place a Zod schema takes text (or anything at all), as paths; records also by their key. */
function textPaths(schema: z.ZodType, at: Segment[] = [], depth = 0): Segment[][] {
  if (depth > 8) return [];
  const def = defOf(schema);
  const inner = (child: z.ZodType | undefined, next = at) => (child ? textPaths(child, next, depth + 1) : []);
  switch (def.type) {
    case 'string':
    case 'enum':
    case 'literal':
    case 'unknown':
    case 'any':
    case 'template_literal':
      return [at];
    case 'object':
      return Object.entries(def.shape ?? {}).flatMap(([key, child]) => inner(child, [...at, key]));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return inner(def.innerType);
    case 'pipe':
      return [...inner(def.in), ...inner(def.out)];
    case 'union':
      return (def.options ?? []).flatMap((option) => inner(option));
    case 'intersection':
      return [...inner(def.left), ...inner(def.right)];
    case 'array':
      return inner(def.element, [...at, '[]']);
    case 'tuple':
      return (def.items ?? []).flatMap((item) => inner(item, [...at, '[]']));
    case 'record':
      return [[...at, '{}'], ...inner(def.valueType, [...at, 'key'])];
    case 'lazy':
      return def.getter ? inner(def.getter()) : [];
    default:
      return [];
  }
}

/** A body with `text` at `where` (and nothing else the route may need: the refusal comes first). */
function bodyWith(where: Segment[], text: string): unknown {
  const [first, ...rest] = where;
  if (first === undefined) return text;
  if (first === '[]') return [bodyWith(rest, text)];
  if (first === '{}') return { [text]: 'x' };
  return { [first]: bodyWith(rest, text) };
}

const unique = (paths: Segment[][]) => [...new Map(paths.map((p) => [p.join('\u0001'), p])).values()];

interface Target {
  /** What is fuzzed, for the failure's message. */
  name: string;
  /** The field the refusal names. */
  field: string;
  request: (text: string) => { method: string; url: string; payload?: unknown };
}

/** Every path parameter, query parameter and body text of a route, each with a control character. */
function targetsOf(route: RouteOptions): Target[] {
  const methods = [route.method].flat().filter((method) => method !== 'HEAD' && method !== 'OPTIONS');
  const params = [...route.url.matchAll(/:(\w+)|\*/g)].map((match) => match[1] ?? '*');
  const urlWith = (param?: string, text = '') =>
    route.url.replace(/:(\w+)|\*/g, (_all, name: string | undefined) =>
      (name ?? '*') === param ? encodeURIComponent(text) : 'x',
    );
  const schema = route.schema as { querystring?: z.ZodType; body?: z.ZodType } | undefined;
  const queryKeys = schema?.querystring
    ? [...new Set(textPaths(schema.querystring).flatMap((p) => (typeof p[0] === 'string' ? [p[0]] : [])))]
    : [];
  const bodyPaths = schema?.body ? unique(textPaths(schema.body)) : [];
  return methods.flatMap((method): Target[] => [
    ...params.map((param) => ({
      name: `${method} ${route.url} param ${param}`,
      field: param === '*' ? 'path' : param,
      request: (text: string) => ({ method, url: urlWith(param, text) }),
    })),
    ...queryKeys.map((key) => ({
      name: `${method} ${route.url} query ${key}`,
      field: key,
      request: (text: string) => ({ method, url: `${urlWith()}?${key}=${encodeURIComponent(text)}` }),
    })),
    {
      name: `${method} ${route.url} query name`,
      field: 'query',
      request: (text: string) => ({ method, url: `${urlWith()}?${encodeURIComponent(text)}=1` }),
    },
    ...(WITH_BODY.has(method)
      ? bodyPaths.map((where) => ({
          name: `${method} ${route.url} body ${where.join('.')}`,
          field: typeof where[0] === 'string' && !['[]', '{}'].includes(where[0]) ? where[0] : 'body',
          request: (text: string) => ({ method, url: urlWith(), payload: bodyWith(where, text) }),
        }))
      : []),
  ]);
}

describe.each(testDatabases())('control characters in every route on $name', ({ create }) => {
  const routes: RouteOptions[] = [];
  const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-web-'));
  fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html>');
  afterAll(() => fs.rmSync(webRoot, { recursive: true, force: true }));
  const t = useTestApp({
    database: create,
    webRoot,
    onRoute: (route) => routes.push(route),
    env: { AUTH_RATE_LIMIT: '0' },
  });
  let admin: UserRecord;
  let token: string;

  beforeAll(async () => {
    admin = await t.user('admin');
    token = await t.tokenFor(admin);
  });

  const send = async (target: Target, text: string, signedIn: boolean) => {
    const { method, url, payload } = target.request(text);
    const answer = await t.app
      .inject({
        method: method as 'GET',
        url,
        headers: signedIn ? { authorization: `Bearer ${token}` } : {},
        ...(payload === undefined ? {} : { payload: payload as object }),
      })
      .catch((error: Error) => ({ statusCode: 0, json: () => ({ error: error.message }) }));
    let body: { error?: unknown } = {};
    try {
      body = answer.json();
    } catch {
      // not JSON: the status tells
    }
    return { status: answer.statusCode, error: body.error };
  };

  it('answers 400 naming the field, never a 500, and Hearth keeps answering and recording', async () => {
    const targets = routes.flatMap(targetsOf);
    // Every kind of place is reached: path parameters, queries, body fields, record keys, lists.
    const names = targets.map((target) => target.name);
    for (const expected of [
      'POST /api/devicehub/devices/:id/commands param id',
      'POST /api/devicehub/devices/:id/commands body state.{}',
      'POST /api/devicehub/devices/:id/commands body input.value',
      'POST /api/auth/login/start body email',
      'GET /api/activity query kind',
      'PUT /api/access/:id body rooms.{}',
      'PUT /api/favourites body device_ids.[]',
      'GET /* param *',
    ])
      expect(names).toContain(expected);

    // Not listening (inject): `http` fails here before and after alike.
    const health = async (): Promise<string[]> => (await t.app.inject({ url: '/healthz' })).json().failing;
    await eventually(health, (failing) => failing.length === 1 && failing[0] === 'http');
    const wrong: string[] = [];
    await fc.assert(
      fc.asyncProperty(controlText(CONTROLS), controlText(IN_TEXT), async (anyControl, textControl) => {
        for (const target of targets) {
          const text =
            target.name.includes(' body ') && !target.name.endsWith('{}') ? textControl : anyControl;
          const expected = `${target.field} must not contain control characters`;
          const asAdmin = await send(target, text, true);
          if (asAdmin.status !== 400 || asAdmin.error !== expected)
            wrong.push(`${target.name} as admin: ${asAdmin.status} ${String(asAdmin.error)}`);
          const signedOut = await send(target, text, false);
          const refused =
            (signedOut.status === 400 && signedOut.error === expected) ||
            [401, 403].includes(signedOut.status);
          if (!refused)
            wrong.push(`${target.name} signed out: ${signedOut.status} ${String(signedOut.error)}`);
        }
        expect(wrong).toEqual([]);
      }),
      // NUL in every place first, then random control characters at random places.
      { numRuns: 3, examples: [['\u0000', '\u0000']] },
    );

    expect(await health()).toEqual(['http']);
    const email = `after-fuzz-${crypto.randomUUID().slice(0, 8)}@example.com`;
    expect((await t.api.post('/login/start', { email, password: 'wrong password' })).statusCode).toBe(401);
    await t.hearth.activity.flush();
    const entries = (await t.call(admin, 'GET', '/api/activity?kind=sign_in')).body
      .entries as ActivityEntry[];
    expect(entries.map((entry) => entry.actor.label)).toContain(email);
    expect(t.hearth.logs.text).not.toContain('"level":50');
  }, 60_000);
});
