import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { ApiTokenGuard } from '../accounts/index.js';
import { type ActivityLog, noActivity } from '../activity/index.js';
import type {
  ApiTokenAuthenticator,
  DeviceDirectory,
  DeviceGate,
  Reach,
  ReachSource,
} from '../devicehub/index.js';
import type { RateLimitWindows } from '../http/rate-limit.js';
import type { Module } from '../lifecycle/module.js';
import type { Database } from '../storage/schema.js';
import type { Guards, UserRecord, UsersRepository } from '../users/index.js';
import { ApiTokensRepository } from './tokens.repository.js';
import { registerTokenHooks, tokenGuard } from './tokens.requests.js';
import { registerTokensRoutes } from './tokens.routes.js';
import { ApiTokensService } from './tokens.service.js';

export interface ApiTokensModuleDeps {
  db: Kysely<Database>;
  log: Logger;
  guards: Guards;
  users: Pick<UsersRepository, 'findById'>;
  /** Owners' reach: their access rules (a token's is this, narrowed). */
  reach: ReachSource;
  devices: Pick<DeviceDirectory, 'has' | 'roomOf'>;
  gate: Pick<DeviceGate, 'visible' | 'reachChanged'>;
  activity?: ActivityLog;
  /** API_TOKEN_RATE_LIMIT calls per token a minute, counted in the database; 0: not limited. */
  limit?: { windows: RateLimitWindows; perMinute: number };
  /** How often the tokens behind open stream connections are read again (default 1 s). */
  recheckMs?: number;
}

export interface ApiTokensModule extends Module {
  /** A `hearth_…` bearer's call (the accounts domain's guards hand them here). */
  guard: ApiTokenGuard;
  /** The device stream's CONNECT with a token as the password. */
  stream: ApiTokenAuthenticator;
  /** A caller's reach as its token narrows it (a person's is unchanged). */
  narrow(caller: Pick<UserRecord, 'id'>, reach: Reach): Reach;
  /** The owner's lock, password reset or sign-out everywhere. */
  revokeAllOf(userId: string): Promise<void>;
}

/** docs/api.md#api-tokens: revoked, expired, an owner's reach gone: the stream notices within this. */
const RECHECK_MS = 1000;

/** API tokens for scripts and integrations (docs/api.md#api-tokens). */
export function apiTokensModule(deps: ApiTokensModuleDeps): ApiTokensModule {
  const log = deps.log.child({ domain: 'tokens' });
  const activity = deps.activity ?? noActivity;
  const service = new ApiTokensService({
    repository: new ApiTokensRepository(deps.db),
    users: deps.users,
    reach: deps.reach,
    devices: deps.devices,
    gate: deps.gate,
    activity,
    limit: deps.limit,
    log,
  });
  let timer: NodeJS.Timeout | undefined;
  let rechecking = false;
  let stopListening: (() => void) | undefined;
  const recheck = (match: Parameters<DeviceGate['reachChanged']>[0]) =>
    deps.gate
      .reachChanged(match)
      .catch((error) => log.warn({ err: error }, 'reading API tokens again failed'));

  return {
    name: 'tokens',
    guard: tokenGuard(service),
    stream: (token, from) => service.forStream(token, from),
    narrow: (caller, reach) => service.narrow(caller, reach),
    revokeAllOf: (userId) => service.revokeAllOf(userId),
    register(app) {
      registerTokenHooks(app, service, activity);
      registerTokensRoutes(app, deps.guards, service, activity);
    },
    start() {
      // Revoked here: its streams close at once.
      stopListening = service.onRevoked((ids) => {
        const revoked = new Set(ids);
        void recheck((principal) => principal.kind === 'api' && revoked.has(principal.tokenId));
      });
      // Anything else (revoked on another instance, expired, the owner's rules or lock): every
      // token connection's token is read again each second.
      timer = setInterval(() => {
        if (rechecking) return;
        rechecking = true;
        void recheck((principal) => principal.kind === 'api').finally(() => {
          rechecking = false;
        });
      }, deps.recheckMs ?? RECHECK_MS);
      timer.unref();
    },
    close() {
      stopListening?.();
      clearInterval(timer);
    },
  };
}
