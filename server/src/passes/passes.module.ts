import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { type ActivityLog, noActivity } from '../activity/index.js';
import {
  type DeviceDirectory,
  type DeviceGate,
  NOTHING,
  type PassAuthenticator,
  type ReachSource,
} from '../devicehub/index.js';
import { addressKey, type RateLimitWindows } from '../http/rate-limit.js';
import type { Module } from '../lifecycle/module.js';
import type { Database } from '../storage/schema.js';
import type { Guards, UsersRepository } from '../users/index.js';
import type { CreatorReach } from './passes.reach.js';
import { PassesRepository } from './passes.repository.js';
import {
  PASS_LOOKUP_SCOPE,
  PASS_LOOKUP_WINDOW_MS,
  PASS_LOOKUPS_PER_MINUTE,
  registerPassesRoutes,
} from './passes.routes.js';
import { PassesService } from './passes.service.js';

export interface PassesModuleDeps {
  db: Kysely<Database>;
  log: Logger;
  guards: Guards;
  /** Which devices the hub lists, and their rooms. */
  devices: DeviceDirectory;
  /** The hub's devices and commands as a reach sees them, and its stream connections' reach. */
  gate: DeviceGate;
  /** Creators' accounts, and what they may do (access rules). */
  users: UsersRepository;
  reach: ReachSource;
  /** PUBLIC_URL, the base of the links handed out. */
  publicUrl: string;
  /** HOUSEHOLD_TIME_ZONE */
  timeZone: string;
  activity?: ActivityLog;
  /**
   * The rate limits' windows: a stream CONNECT with a token counts into its address's look-ups,
   * as the page's REST calls do (docs/passes.md#rate-limit). None: not counted (tests).
   */
  lookups?: RateLimitWindows;
  /** How often the passes behind open stream connections are read again (default 1 s). */
  recheckMs?: number;
}

export interface PassesModule extends Module {
  /** The device stream's CONNECT with username `pass` (the token as password). */
  authenticate: PassAuthenticator;
}

/** docs/passes.md#stream: an end, a closing window, a change on another instance: noticed within this. */
const RECHECK_MS = 1000;

/** Guest passes (docs/passes.md). */
export function passesModule(deps: PassesModuleDeps): PassesModule {
  const log = deps.log.child({ domain: 'passes' });
  const activity = deps.activity ?? noActivity;
  // A creator who is gone or locked by an administrator gives nothing; else their access rules.
  const creatorReach: CreatorReach = async (id) => {
    const creator = await deps.users.findById(id);
    if (!creator || (creator.lockoutEnabled && creator.lockoutReason === 'admin_lock')) return NOTHING;
    return deps.reach.reachOf(creator);
  };
  const service = new PassesService({
    repository: new PassesRepository(deps.db),
    devices: deps.devices,
    gate: deps.gate,
    creatorReach,
    activity,
    publicUrl: deps.publicUrl,
    timeZone: deps.timeZone,
  });
  let timer: NodeJS.Timeout | undefined;
  let rechecking = false;
  let stopListening: (() => void) | undefined;
  const recheck = (match: Parameters<DeviceGate['reachChanged']>[0]) =>
    deps.gate.reachChanged(match).catch((error) => log.warn({ err: error }, 'reading passes again failed'));

  return {
    name: 'passes',
    authenticate: async (token, from) => {
      if (from && deps.lookups) {
        const key = addressKey(PASS_LOOKUP_SCOPE, from.address);
        const { hits } = await deps.lookups.hit(key, PASS_LOOKUP_WINDOW_MS);
        if (hits > PASS_LOOKUPS_PER_MINUTE) {
          if (hits === PASS_LOOKUPS_PER_MINUTE + 1) {
            log.warn({ address: from.address }, 'guest pass look-ups rate-limited');
          }
          return 'rate-limited';
        }
      }
      const open = await service.forStream(
        token,
        from && { ip: from.address, ...(from.client ? { client: from.client } : {}) },
      );
      return open && { principal: open.principal, reach: open.reach };
    },
    register: (app) => registerPassesRoutes(app, deps.guards, service, activity),
    start() {
      // Paused or revoked here: that pass's pages lose the stream at once.
      stopListening = service.onChange(
        (passId) => void recheck((principal) => principal.kind === 'pass' && principal.passId === passId),
      );
      // Everything else (an end, a schedule's window closing, a change on another instance, the
      // creator's rules): every pass connection's pass is read again each second.
      timer = setInterval(() => {
        if (rechecking) return;
        rechecking = true;
        void recheck((principal) => principal.kind === 'pass').finally(() => {
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
