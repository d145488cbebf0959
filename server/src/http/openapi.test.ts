import { Validator } from '@seriousme/openapi-schema-validator';
import type { RouteOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestApp } from '../../test/app.js';
import { OPERATION_EXAMPLES } from './openapi.examples.js';
import { documented, openApiPath } from './openapi.js';

interface Operation {
  parameters?: { in: string; name: string }[];
  requestBody?: {
    content: Record<string, { schema?: unknown; examples?: Record<string, { value: unknown }> }>;
  };
  responses: Record<string, unknown>;
  security?: Record<string, string[]>[];
}
type Paths = Record<string, Record<string, Operation>>;

const isZod = (schema: unknown): schema is z.ZodType => schema instanceof z.ZodType;
const queryKeys = (schema: unknown): string[] =>
  isZod(schema) && schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];

/** What the document lacks of a route: the operation, its path parameters, query or body. */
export function missingFromDocument(
  route: Pick<RouteOptions, 'method' | 'url' | 'schema'>,
  paths: Paths,
): string[] {
  const problems: string[] = [];
  for (const method of [route.method].flat()) {
    if (method === 'HEAD') continue;
    const name = `${method} ${route.url}`;
    const operation = paths[openApiPath(route.url)]?.[method.toLowerCase()];
    if (!operation) {
      problems.push(`${name}: not in the document`);
      continue;
    }
    const parameters = operation.parameters ?? [];
    for (const param of route.url.match(/:([A-Za-z0-9_]+)/g) ?? []) {
      if (!parameters.some((p) => p.in === 'path' && p.name === param.slice(1)))
        problems.push(`${name}: no path parameter ${param}`);
    }
    for (const key of queryKeys(route.schema?.querystring)) {
      if (!parameters.some((p) => p.in === 'query' && p.name === key))
        problems.push(`${name}: no query ${key}`);
    }
    const body = route.schema?.body;
    if (
      isZod(body) &&
      !(body instanceof z.ZodNullable || body instanceof z.ZodOptional) &&
      !operation.requestBody
    )
      problems.push(`${name}: no request body`);
  }
  return problems;
}

/** Issue 38, acceptance 2: the OpenAPI document is valid OpenAPI 3.1 and holds every API route with its schemas. */
describe('the OpenAPI document', () => {
  const routes: RouteOptions[] = [];
  const t = useTestApp({ onRoute: (route) => routes.push(route) });
  let document: { openapi: string; paths: Paths; components: { securitySchemes: Record<string, unknown> } };

  beforeAll(async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    document = response.json();
  });

  it('is valid OpenAPI 3.1 by the published schema', async () => {
    expect(document.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('lists every API route with its path parameters, query and body', () => {
    const api = routes.filter((route) => documented(route.url));
    expect(api.length).toBeGreaterThan(40);
    expect(api.flatMap((route) => missingFromDocument(route, document.paths))).toEqual([]);
    // Needs no sign-in: it describes, it holds no data.
    expect(document.paths['/api/openapi.json']?.get?.security).toEqual([]);
  });

  it('would name a route the document lacks', () => {
    const route = {
      method: 'POST',
      url: '/api/things/:id',
      schema: { querystring: z.object({ q: z.string() }), body: z.object({}) },
    };
    expect(missingFromDocument(route, {})).toEqual(['POST /api/things/:id: not in the document']);
    expect(missingFromDocument(route, { '/api/things/{id}': { post: { responses: {} } } })).toEqual([
      'POST /api/things/:id: no path parameter :id',
      'POST /api/things/:id: no query q',
      'POST /api/things/:id: no request body',
    ]);
  });

  it('offers both ways in, API tokens only where their scope opens the call', () => {
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['accessToken', 'apiToken']);
    const security = (path: string, method: string) =>
      (document.paths[path]?.[method]?.security ?? []).flatMap((each) => Object.keys(each));
    expect(security('/api/devicehub/devices', 'get')).toEqual(['accessToken', 'apiToken']);
    expect(security('/api/devicehub/devices/{id}/commands', 'post')).toEqual(['accessToken', 'apiToken']);
    expect(security('/api/rooms', 'post')).toEqual(['accessToken']);
    for (const [path, item] of Object.entries(document.paths).filter(([path]) =>
      path.startsWith('/api/auth'),
    ))
      for (const operation of Object.values(item))
        expect(JSON.stringify(operation.security ?? []), path).not.toContain('apiToken');
  });

  it('gives every operation its error answers, with the texts every route may answer', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const status of ['400', '404', '500', '503'])
          expect(operation.responses, `${method} ${path}`).toHaveProperty(status);
        if ((operation.security ?? []).length > 0) expect(operation.responses).toHaveProperty('401');
      }
    }
    const command = document.paths['/api/devicehub/devices/{id}/commands']!.post!.responses;
    expect(JSON.stringify(command['403'])).toContain('This API token may only read');
    expect(JSON.stringify(command['429'])).toContain('Retry-After');
  });

  it('shows the docs’ examples, each a body its route takes', () => {
    for (const [key, example] of Object.entries(OPERATION_EXAMPLES)) {
      const [method, path] = key.split(' ') as [string, string];
      const operation = document.paths[path]?.[method.toLowerCase()];
      expect(operation, key).toBeDefined();
      if (example.request === undefined) continue;
      expect(operation!.requestBody?.content['application/json']?.examples?.docs?.value, key).toEqual(
        example.request,
      );
      const route = routes.find(
        (each) => openApiPath(each.url) === path && [each.method].flat().includes(method),
      );
      const body = route?.schema?.body;
      expect(isZod(body) && body.safeParse(example.request).success, key).toBe(true);
    }
  });

  it('renders /api/docs from the package, every file of it from this server', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(assets.length).toBeGreaterThan(3);
    for (const asset of assets) {
      expect(asset.startsWith('/api/docs/'), asset).toBe(true);
      expect((await t.app.inject({ method: 'GET', url: asset })).statusCode, asset).toBe(200);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/docs/package.json' })).statusCode).toBe(400);
  });
});
