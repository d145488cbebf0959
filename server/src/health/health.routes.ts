import type { HttpApp } from '../http/http-app.js';
import { noQuery } from '../http/validation.js';

export interface HealthCheck {
  name: string;
  check(): Promise<boolean> | boolean;
}

/** What /healthz reports beside the checks (docs/api.md#health): e.g. the bus probe's round trip. */
export type HealthDetails = () => object;

/** A check that has not answered within this long counts as failing. */
export const HEALTH_CHECK_TIMEOUT_MS = 2000;

/**
 * The names of the checks that fail, throw, or do not answer within `timeoutMs`, sorted. Checks
 * that answer at once cost no promise; the others share one timer, cleared as soon as they have
 * all answered (a timer per check, left to run out, kept five live timers per probe for 2 s).
 */
export async function failingChecks(
  checks: readonly HealthCheck[],
  timeoutMs = HEALTH_CHECK_TIMEOUT_MS,
): Promise<string[]> {
  const failing: string[] = [];
  const waiting = new Set<string>();
  const answers: Promise<void>[] = [];
  for (const { name, check } of checks) {
    let result: Promise<boolean> | boolean;
    try {
      result = check();
    } catch {
      failing.push(name);
      continue;
    }
    if (typeof result === 'boolean') {
      if (!result) failing.push(name);
      continue;
    }
    waiting.add(name);
    answers.push(
      result.then(
        (ok) => {
          if (waiting.delete(name) && !ok) failing.push(name);
        },
        () => {
          if (waiting.delete(name)) failing.push(name);
        },
      ),
    );
  }
  if (answers.length > 0) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(answers),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
    // Late answers no longer count: what has not answered fails.
    for (const name of waiting) failing.push(name);
    waiting.clear();
  }
  return failing.sort();
}

/**
 * GET /healthz: 200 {"status":"ok"} when every part is ready, else 503 naming the failing parts;
 * both with `details` when there are any.
 */
export function registerHealthRoutes(app: HttpApp, checks: readonly HealthCheck[], details?: HealthDetails) {
  app.get('/healthz', { logLevel: 'warn', schema: { querystring: noQuery } }, async (_request, reply) => {
    const failing = await failingChecks(checks);
    reply.header('cache-control', 'no-store');
    const extra = details ? { details: details() } : {};
    if (failing.length === 0) return { status: 'ok', ...extra };
    // A status report, not an error: a 503 with its own body, which load balancers read.
    return reply.code(503).send({ status: 'unavailable', failing, ...extra });
  });
}
