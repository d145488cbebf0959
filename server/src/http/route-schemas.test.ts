import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RouteOptions } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestApp } from '../../test/app.js';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const isZod = (schema: unknown) => schema instanceof z.core.$ZodType;

/** What a route fails to declare: its params, its query and (for writes) its body, as Zod schemas. */
function schemaProblems(route: Pick<RouteOptions, 'method' | 'url' | 'schema'>): string[] {
  const { schema } = route;
  if (!schema) return ['no schema'];
  const problems: string[] = [];
  const hasParams = /[:*]/.test(route.url);
  if (hasParams && !isZod(schema.params)) problems.push('no params schema');
  if (!hasParams && schema.params) problems.push('a params schema without parameters');
  if (!isZod(schema.querystring)) problems.push('no query schema');
  const methods = [route.method].flat();
  if (methods.some((method) => WITH_BODY.has(method)) && !isZod(schema.body)) problems.push('no body schema');
  return problems;
}

describe('the route table', () => {
  const routes: RouteOptions[] = [];
  const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-web-'));
  fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html>');
  afterAll(() => fs.rmSync(webRoot, { recursive: true, force: true }));
  // Every module registers all its routes whatever the configuration; the web app's need a build.
  useTestApp({ webRoot, onRoute: (route) => routes.push(route) });

  it('gives every route a Zod schema for its params, query and body', () => {
    const missing = routes.flatMap((route) =>
      schemaProblems(route).map((problem) => `${[route.method].flat().join(',')} ${route.url}: ${problem}`),
    );
    expect(missing).toEqual([]);
    expect(routes.map((route) => route.url)).toEqual(
      expect.arrayContaining([
        '/api/auth/signup',
        '/api/auth/users/:id',
        '/api/devicehub/devices/:id/commands',
        '/healthz',
        '/*',
      ]),
    );
  });

  it('would name a route that declares nothing', () => {
    expect(schemaProblems({ method: 'POST', url: '/api/things/:id' })).toEqual(['no schema']);
    expect(
      schemaProblems({ method: 'PATCH', url: '/api/things/:id', schema: { querystring: z.object({}) } }),
    ).toEqual(['no params schema', 'no body schema']);
  });
});
