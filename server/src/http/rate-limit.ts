import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { nowIso } from '../storage/columns.js';
import type { Database } from '../storage/schema.js';
import { HttpError } from './errors.js';
import type { HttpApp } from './http-app.js';

export const TOO_MANY_REQUESTS = 'Too many requests, please try again later';
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

type Done = (error: Error | null, result: { current: number; ttl: number }) => void;

/**
 * Counting windows kept in the database, so that every instance behind a load balancer counts
 * into the same window and a restart forgets nothing. One statement per request, atomic on SQLite
 * and PostgreSQL: start a window or add to the running one, and read back where it stands.
 */
export class RateLimitWindows {
  private sweepAt = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: Logger,
  ) {}

  async hit(key: string, windowMs: number, now = Date.now()): Promise<{ hits: number; endsAt: number }> {
    const current = nowIso(now);
    const row = await this.db
      .insertInto('rate_limit_windows')
      .values({ key, hits: 1, ends_at: nowIso(now + windowMs) })
      .onConflict((conflict) =>
        conflict.column('key').doUpdateSet((eb) => {
          const ended = eb('rate_limit_windows.ends_at', '<=', current);
          return {
            hits: eb
              .case()
              .when(ended)
              .then(1)
              .else(eb('rate_limit_windows.hits', '+', 1))
              .end(),
            ends_at: eb
              .case()
              .when(ended)
              .then(eb.ref('excluded.ends_at'))
              .else(eb.ref('rate_limit_windows.ends_at'))
              .end(),
          };
        }),
      )
      .returning(['hits', 'ends_at'])
      .executeTakeFirstOrThrow();
    this.sweep(now);
    return { hits: Number(row.hits), endsAt: Date.parse(row.ends_at) };
  }

  /** Now and then, forgets windows that have ended (any instance may; it is idempotent). */
  private sweep(now: number) {
    if (now < this.sweepAt) return;
    this.sweepAt = now + MINUTE_MS;
    this.db
      .deleteFrom('rate_limit_windows')
      .where('ends_at', '<', nowIso(now))
      .execute()
      .catch((error) => this.log.warn({ err: error }, 'sweeping rate-limit windows failed'));
  }
}

/** The store interface of @fastify/rate-limit over RateLimitWindows. */
const storeOver = (windows: RateLimitWindows) =>
  class DatabaseStore {
    incr(key: string, done: Done, timeWindow: number) {
      windows.hit(key, timeWindow).then(
        ({ hits, endsAt }) => done(null, { current: hits, ttl: Math.max(0, endsAt - Date.now()) }),
        (error: Error) => done(error, { current: 0, ttl: 0 }),
      );
    }
    child() {
      return this;
    }
  };

/**
 * A budget per client address that a service spends by hand, where a route's limit would not do:
 * the route has one already (the plugin runs one per request), or only some outcomes should cost
 * (a sign-up that is made, not one refused for its password). Counted in the database like every
 * other limit; an IPv6 client counts by its /64, the block one household gets.
 */
export class AddressBudget {
  constructor(
    private readonly windows: RateLimitWindows,
    private readonly scope: string,
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** Spends one from `address`'s budget; over it, 429 with Retry-After (the window's end). */
  async spend(address: string, now = Date.now()): Promise<void> {
    const { hits, endsAt } = await this.windows.hit(
      addressKey(this.scope, normalizeIP(address)),
      this.windowMs,
      now,
    );
    if (hits <= this.max) return;
    const seconds = Math.max(1, Math.ceil((endsAt - now) / 1000));
    throw new HttpError(429, TOO_MANY_REQUESTS, {}, { 'retry-after': String(seconds) });
  }
}

export interface RateLimits {
  /**
   * Route config for the unauthenticated auth calls: AUTH_RATE_LIMIT calls per client address
   * (request.ip, which honours TRUST_PROXY) per minute, shared by all of them. Empty when the
   * limit is off (0), so those routes do no extra work at all.
   */
  auth: FastifyContextConfig;
  /** The counting windows themselves, for limits counted outside a route (the stream's CONNECT). */
  windows: RateLimitWindows;
  /** SIGNUP_RATE_LIMIT sign-ups per client address an hour; undefined when it is off (0). */
  signups: AddressBudget | undefined;
}

/** @fastify/rate-limit, registered once with `global: false`: routes opt in with `config.rateLimit`. */
export async function registerRateLimit(
  app: HttpApp,
  options: { db: Kysely<Database>; log: Logger; authPerMinute: number; signupsPerHour: number },
): Promise<RateLimits> {
  const windows = new RateLimitWindows(options.db, options.log);
  await app.register(rateLimit, {
    global: false,
    store: storeOver(windows),
    errorResponseBuilder: () => new HttpError(429, TOO_MANY_REQUESTS),
  });
  return {
    windows,
    signups:
      options.signupsPerHour > 0
        ? new AddressBudget(windows, 'signup', options.signupsPerHour, HOUR_MS)
        : undefined,
    auth:
      options.authPerMinute > 0
        ? {
            rateLimit: {
              max: options.authPerMinute,
              timeWindow: MINUTE_MS,
              keyGenerator: (request: FastifyRequest) => `auth:${request.ip}`,
            },
          }
        : {},
  };
}

/**
 * Route config limiting a signed-in call per user: `max` calls per `windowMs`, counted like every
 * other limit in the database. It runs after the route's guard has put the caller on the request
 * (and before a handler reads the body). Routes with the same `scope` share one count per user.
 */
export function perUserLimit(max: number, windowMs: number, scope = 'user'): FastifyContextConfig {
  return {
    rateLimit: {
      max,
      timeWindow: windowMs,
      hook: 'preHandler',
      keyGenerator: (request: FastifyRequest) => `${scope}:${request.caller?.id ?? request.ip}`,
    },
  };
}

/** The window of a per-address limit: routes and the stream's CONNECT with one scope share it. */
export const addressKey = (scope: string, address: string) => `${scope}:${address}`;

/**
 * Route config limiting calls per client address (request.ip, TRUST_PROXY applied): `max` per
 * `windowMs`, counted in the database like every other limit. Routes with the same `scope` share
 * one count per address. It runs before the route's handler looks anything up.
 */
export function perAddressLimit(max: number, windowMs: number, scope: string): FastifyContextConfig {
  return {
    rateLimit: {
      max,
      timeWindow: windowMs,
      keyGenerator: (request: FastifyRequest) => addressKey(scope, request.ip),
    },
  };
}
