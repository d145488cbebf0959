import type { IncomingMessage, ServerResponse } from 'node:http';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type RawServerDefault,
  type RouteOptions,
} from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { answerClientError, answerError, registerErrorHandling } from './errors.js';

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

/** Fastify with Zod validation, the one error serialiser and a 1 MB body limit. */
export function createHttpApp(options: HttpAppOptions): HttpApp {
  const app = Fastify({
    loggerInstance: options.log as FastifyBaseLogger,
    trustProxy: options.trustProxy ?? false,
    bodyLimit: 1024 * 1024,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    clientErrorHandler: answerClientError,
    frameworkErrors: answerError,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  registerErrorHandling(app);
  return app;
}
