import type { HttpApp } from '../http/http-app.js';
import { noQuery } from '../http/validation.js';

export interface HealthCheck {
  name: string;
  check(): Promise<boolean> | boolean;
}

/** What /healthz reports beside the checks (docs/api.md#health): e.g. the bus probe's round trip. */
export type HealthDetails = () => object;

/**
 * GET /healthz: 200 {"status":"ok"} when every part is ready, else 503 naming the failing parts;
 * both with `details` when there are any.
 */
export function registerHealthRoutes(app: HttpApp, checks: readonly HealthCheck[], details?: HealthDetails) {
  app.get('/healthz', { logLevel: 'warn', schema: { querystring: noQuery } }, async (_request, reply) => {
    const failing: string[] = [];
    await Promise.all(
      checks.map(async ({ name, check }) => {
        const ok = await Promise.race([
          Promise.resolve()
            .then(check)
            .catch(() => false),
          new Promise<boolean>((resolve) => setTimeout(resolve, 2000, false).unref()),
        ]);
        if (!ok) failing.push(name);
      }),
    );
    reply.header('cache-control', 'no-store');
    const extra = details ? { details: details() } : {};
    if (failing.length === 0) return { status: 'ok', ...extra };
    failing.sort();
    // A status report, not an error: a 503 with its own body, which load balancers read.
    return reply.code(503).send({ status: 'unavailable', failing, ...extra });
  });
}
