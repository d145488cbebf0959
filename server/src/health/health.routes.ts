import type { FastifyInstance } from 'fastify';

export interface HealthCheck {
  name: string;
  check(): Promise<boolean> | boolean;
}

/** GET /healthz: 200 {"status":"ok"} when every part is ready, else 503 naming the failing parts. */
export function registerHealthRoutes(app: FastifyInstance, checks: HealthCheck[]) {
  app.get('/healthz', { logLevel: 'warn' }, async (_request, reply) => {
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
    if (failing.length === 0) return reply.header('cache-control', 'no-store').send({ status: 'ok' });
    failing.sort();
    return reply.code(503).header('cache-control', 'no-store').send({ status: 'unavailable', failing });
  });
}
