import type { HttpApp } from '../http/http-app.js';
import { noQuery } from '../http/validation.js';

export interface HealthCheck {
  name: string;
  check(): Promise<boolean> | boolean;
}

/** GET /healthz: 200 {"status":"ok"} when every part is ready, else 503 naming the failing parts. */
export function registerHealthRoutes(app: HttpApp, checks: readonly HealthCheck[]) {
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
    if (failing.length === 0) return { status: 'ok' };
    failing.sort();
    // A status report, not an error: a 503 with its own body, which load balancers read.
    return reply.code(503).send({ status: 'unavailable', failing });
  });
}
