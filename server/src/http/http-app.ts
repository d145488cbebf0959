import type { IncomingMessage, ServerResponse } from 'node:http';
import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type RawServerDefault,
  type RouteOptions,
} from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { proxyTrust } from './client-address.js';
import { refuseControlCharacters } from './control-characters.js';
import {
  answerClientError,
  answerError,
  HttpError,
  registerErrorHandling,
  SERVICE_UNAVAILABLE,
} from './errors.js';

/** The Fastify instance every module registers on: route schemas are Zod schemas, typed through. */
export type HttpApp = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse<IncomingMessage>,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export interface HttpAppOptions {
  log: Logger;
  trustProxy: string | undefined;
  /** Sees every route as it is added (the route-table test). */
  onRoute?: (route: RouteOptions) => void;
}

/**
 * Brotli or gzip for JSON and the web app's files over 1 KB (issue 10: the list of 2000 real
 * devices, 10 MB, goes out as ~0.2 MB). Quality 4 and level 5: most of the gain for little CPU.
 */
const COMPRESSION = {
  threshold: 1024,
  encodings: ['br', 'gzip'] as ('br' | 'gzip')[],
  brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  zlibOptions: { level: 5 },
};

/**
 * Fastify with Zod validation (no control characters anywhere first), the one error serialiser,
 * compression and a 1 MB body limit.
 */
export function createHttpApp(options: HttpAppOptions): HttpApp {
  const app = Fastify({
    loggerInstance: options.log as FastifyBaseLogger,
    trustProxy: proxyTrust(options.trustProxy),
    bodyLimit: 1024 * 1024,
    forceCloseConnections: 'idle',
    // Requests that arrive while the server closes are answered by the hook below, in the one
    // {error} shape with Retry-After (Fastify's own 503 has a body of its own).
    return503OnClosing: false,
    clientErrorHandler: answerClientError,
    frameworkErrors: answerError,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  registerErrorHandling(app);
  void app.register(fastifyCompress, COMPRESSION);
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Hooks that run on every request take a callback: an async one costs a promise each time.
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) return done();
    reply.header('connection', 'close');
    done(new HttpError(503, SERVICE_UNAVAILABLE, {}, { 'retry-after': '5' }));
  });
  app.addHook('preValidation', refuseControlCharacters);
  return app;
}
