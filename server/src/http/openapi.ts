import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import swagger from '@fastify/swagger';
import type { RouteOptions } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SERVICE_UNAVAILABLE } from './errors.js';
import type { HttpApp } from './http-app.js';
import { OPERATION_EXAMPLES } from './openapi.examples.js';
import { TOO_MANY_REQUESTS } from './rate-limit.js';
import { isSignInGuard } from './route-guards.js';
import { noQuery } from './validation.js';

/** What an API token may call: the scope a route needs, or undefined (the tokens domain's list). */
export type TokenCallOf = (method: string, url: string) => { scope: string } | undefined;

export interface OpenApiOptions {
  /** PUBLIC_URL: the document's server. */
  publicUrl: string;
  /** Routes open to API tokens (docs/api.md#what-a-token-may-call). */
  tokenCall: TokenCallOf;
}

/** Only the API and the health check are documented; the web app's files and pages are not. */
export const documented = (url: string): boolean => url.startsWith('/api/') || url === '/healthz';

/** `/api/rooms/:id/devices` as OpenAPI writes it: `/api/rooms/{id}/devices`. */
export const openApiPath = (url: string): string => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** What the document says of a route beyond its schemas, read from the route itself. */
interface RouteFacts {
  signedIn: boolean;
  tokenScope: string | undefined;
  body: boolean;
  params: boolean;
  limited: boolean;
  envelope: boolean;
}

const error = (text: string) => ({ error: text });
/** docs/api.md#errors: the answers every route may give, with their exact texts. */
const ERROR_ANSWERS: Record<string, { description: string; examples: Record<string, unknown> }> = {
  '400': {
    description: 'The request does not fit the route: its params, query or body, or a malformed JSON body',
    examples: {
      schema: error('name must be text'),
      json: error('Malformed JSON body'),
      control: error('name must not contain control characters'),
      repeated: error('first must be given once'),
      tokenInAddress: error('Send API tokens in the Authorization header, never in the address'),
    },
  },
  '401': {
    description: 'No valid access token or API token',
    examples: { signedOut: error('Authentication required'), apiToken: error('Invalid API token') },
  },
  '403': {
    description: 'The caller may not make this call (role, access rules, or an API token’s scope)',
    examples: {
      role: error('Forbidden'),
      notOpen: error('API tokens cannot make this call'),
      readOnly: error('This API token may only read'),
      accounts: error('API tokens cannot be used on the accounts API'),
      cookie: error('Request refused: it did not come from Hearth’s own page'),
    },
  },
  '404': {
    description: 'Not found, or not visible to the caller',
    examples: { notFound: error('Not found') },
  },
  '413': {
    description: 'The body is over the route’s limit',
    examples: { tooLarge: error('Request body is too large') },
  },
  '414': {
    description: 'A path parameter over 100 characters',
    examples: { tooLong: error('URI is too long') },
  },
  '415': {
    description: 'A body in a content type the route does not take',
    examples: { contentType: error('Unsupported content type') },
  },
  '429': {
    description: 'Over a rate limit (the Retry-After header says when to come back)',
    examples: { tooMany: error(TOO_MANY_REQUESTS) },
  },
  '500': { description: 'Anything unexpected', examples: { internal: error('Internal server error') } },
  '503': {
    description: 'The database cannot be reached, or the server is shutting down (Retry-After: 5)',
    examples: { unavailable: error(SERVICE_UNAVAILABLE) },
  },
};

const RETRY_AFTER = {
  'Retry-After': { description: 'Seconds until the call may be made again', schema: { type: 'integer' } },
};

/** The statuses a route may answer besides its success, from what it is. */
function errorStatuses(facts: RouteFacts): string[] {
  return [
    '400',
    ...(facts.signedIn ? ['401', '403'] : []),
    '404',
    ...(facts.body ? ['413', '415'] : []),
    ...(facts.params ? ['414'] : []),
    ...(facts.limited || facts.tokenScope ? ['429'] : []),
    '500',
    '503',
  ];
}

function errorResponse(status: string, envelope: boolean) {
  const answer = ERROR_ANSWERS[status]!;
  const examples = Object.fromEntries(
    Object.entries(answer.examples).map(([name, value]) => [
      name,
      { value: envelope ? { success: false, data: null, ...(value as object) } : value },
    ]),
  );
  return {
    description: answer.description,
    ...(status === '429' || status === '503' ? { headers: RETRY_AFTER } : {}),
    content: {
      'application/json': {
        schema: { $ref: envelope ? '#/components/schemas/ResultError' : '#/components/schemas/Error' },
        examples,
      },
    },
  };
}

const INTRO = `Hearth's HTTP API, generated from the route schemas. Every answer is JSON unless a route says
otherwise; every failure is \`{"error": "…"}\` (the device calls' \`{"success": false, "data": null,
"error": "…"}\`). The full reference with every text is docs/api.md; scripting with API tokens is
docs/api.md#scripting-hearth.`;

/**
 * The OpenAPI 3.1 document of every API route, built by @fastify/swagger from the routes' Zod
 * schemas (fastify-type-provider-zod's transforms, which emit JSON Schema 2020-12 for 3.1), with
 * both ways to sign in, each route's error answers and the docs' examples; `GET /api/openapi.json`
 * serves it and `/api/docs` renders it with Swagger UI from the swagger-ui-dist package. Register
 * it before any route: @fastify/swagger collects them as they are added.
 */
export async function registerOpenApi(app: HttpApp, options: OpenApiOptions): Promise<void> {
  const facts = new Map<string, RouteFacts>();
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Hearth API', version: '1', description: INTRO },
      servers: [{ url: options.publicUrl }],
      components: {
        securitySchemes: {
          accessToken: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'A person’s 15-minute access token from sign-in (docs/api.md#authentication)',
          },
          apiToken: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'hearth_ and 40 characters',
            description:
              'An API token from Settings → API tokens, for scripts: only the calls its scope opens (docs/api.md#api-tokens)',
          },
        },
      },
    },
    transform: (document) => {
      const { url, route } = document;
      if (!documented(url)) return { schema: { hide: true } as never, url };
      const transformed = jsonSchemaTransform(document);
      const methods = [route.method].flat();
      for (const method of methods) {
        facts.set(
          `${method.toLowerCase()} ${openApiPath(url)}`,
          routeFacts(route, method, options.tokenCall),
        );
      }
      return transformed;
    },
    transformObject: (document) => decorate(jsonSchemaTransformObject(document), facts),
  });

  app.get('/api/openapi.json', { schema: { querystring: noQuery } }, async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return app.swagger();
  });
  registerDocsPage(app);
}

function routeFacts(route: RouteOptions, method: string, tokenCall: TokenCallOf): RouteFacts {
  const hooks = [route.onRequest ?? []].flat();
  const schema = (route.schema ?? {}) as { body?: unknown; params?: unknown };
  const config = (route.config ?? {}) as { rateLimit?: unknown; resultEnvelope?: boolean };
  return {
    signedIn: hooks.some(isSignInGuard),
    tokenScope: tokenCall(method, route.url)?.scope,
    body: schema.body !== undefined,
    params: schema.params !== undefined,
    limited: config.rateLimit !== undefined,
    envelope: config.resultEnvelope === true,
  };
}

type Operation = {
  responses?: Record<string, { description?: string; content?: unknown }>;
  security?: unknown[];
  tags?: string[];
  description?: string;
  requestBody?: { content?: Record<string, { schema?: unknown; examples?: unknown }> };
};
type Document = ReturnType<typeof jsonSchemaTransformObject>;
type Components = { schemas?: Record<string, unknown> };

const tagOf = (path: string) => {
  const [, , area = 'health', next] = path.split('/');
  if (path === '/healthz') return 'health';
  if (area === 'auth') return next === 'tokens' ? 'api tokens' : next === 'users' ? 'users' : 'accounts';
  return area === 'pass' ? 'passes' : area === 'floors' || area === 'favourites' ? 'rooms' : area;
};

/** Every operation: tags, who may call it, its examples, and every error answer. */
function decorate(document: Document, facts: Map<string, RouteFacts>): Document {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Operation>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const known = facts.get(`${method} ${path}`);
      if (!known) continue;
      operation.tags = [tagOf(path)];
      operation.security = known.signedIn
        ? [{ accessToken: [] }, ...(known.tokenScope ? [{ apiToken: [] }] : [])]
        : [];
      if (known.tokenScope) {
        operation.description = `${operation.description ? `${operation.description}\n\n` : ''}API tokens with the \`${known.tokenScope}\` scope may make this call.`;
      }
      const example = OPERATION_EXAMPLES[`${method.toUpperCase()} ${path}`];
      const success = example?.status ?? '200';
      const responses: Record<string, unknown> = {
        [success]: {
          description: example?.description ?? 'Success',
          ...(example?.response !== undefined
            ? { content: { [example.type ?? 'application/json']: { example: example.response } } }
            : {}),
        },
      };
      for (const status of errorStatuses(known)) responses[status] = errorResponse(status, known.envelope);
      operation.responses = responses as Operation['responses'];
      const body = operation.requestBody?.content?.['application/json'];
      if (body && example?.request !== undefined) body.examples = { docs: { value: example.request } };
    }
  }
  const doc = document as Document & { components?: Components };
  const schema = (shape: z.ZodType) => {
    const { $schema: _, ...json } = z.toJSONSchema(shape, { target: 'draft-2020-12' });
    return json;
  };
  doc.components = {
    ...doc.components,
    schemas: {
      ...doc.components?.schemas,
      Error: schema(z.object({ error: z.string() })),
      ResultError: schema(z.object({ success: z.literal(false), data: z.null(), error: z.string() })),
    },
  };
  return document;
}

/** The reference page's own files: Swagger UI from its package, Hearth's start and colours. */
const swaggerUiDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const PACKAGE_FILES = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
} as const;

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="color-scheme" content="light dark" />
    <title>Hearth API</title>
    <link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png" />
    <link rel="stylesheet" href="/api/docs/swagger-ui.css" />
    <link rel="stylesheet" href="/api/docs/hearth.css" />
  </head>
  <body>
    <div id="docs"></div>
    <script src="/api/docs/swagger-ui-bundle.js"></script>
    <script src="/api/docs/hearth.js"></script>
  </body>
</html>
`;

/** No request leaves the page: no validator badge, no remote configuration, the spec from here. */
const START = `window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#docs',
  deepLinking: true,
  validatorUrl: null,
  queryConfigEnabled: false,
  tryItOutEnabled: false,
  displayRequestDuration: true,
  defaultModelsExpandDepth: 0,
});
`;

/** Hearth's two themes, as far as Swagger UI (which has one) allows: the light one's grey, and the dark one inverted. */
const THEME = `body { margin: 0; background: #f3f4f6; }
.swagger-ui .topbar { display: none; }
@media (prefers-color-scheme: dark) {
  body { background: #121417; }
  .swagger-ui { filter: invert(0.9) hue-rotate(180deg); }
  .swagger-ui .microlight, .swagger-ui img { filter: invert(1) hue-rotate(180deg); }
}
`;

const DOCS_FILES = [
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'favicon-32x32.png',
  'hearth.css',
  'hearth.js',
] as const;
const docsFile = z.object({ file: z.enum(DOCS_FILES, { error: 'Not found' }) });

function registerDocsPage(app: HttpApp) {
  const files = new Map<string, { type: string; body: Buffer | string }>([
    ['hearth.css', { type: 'text/css; charset=utf-8', body: THEME }],
    ['hearth.js', { type: 'text/javascript; charset=utf-8', body: START }],
  ]);
  const read = (name: keyof typeof PACKAGE_FILES) => {
    let file = files.get(name);
    if (!file) {
      file = { type: PACKAGE_FILES[name], body: fs.readFileSync(path.join(swaggerUiDir, name)) };
      files.set(name, file);
    }
    return file;
  };
  app.get('/api/docs', { schema: { querystring: noQuery } }, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(PAGE),
  );
  app.get(
    '/api/docs/:file',
    { schema: { params: docsFile, querystring: noQuery } },
    async (request, reply) => {
      const name = request.params.file;
      const file = name in PACKAGE_FILES ? read(name as keyof typeof PACKAGE_FILES) : files.get(name)!;
      return reply.header('cache-control', 'public, max-age=3600').type(file.type).send(file.body);
    },
  );
}
