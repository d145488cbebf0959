import {
  type ActivityActor,
  API_TOKEN_EXPIRIES,
  API_TOKEN_PREFIX,
  type ApiToken,
  type ApiTokenList,
  accessAtLeast,
  type CreatedApiToken,
} from '@hearth/contracts';
import { type ActivityLog, actAs } from '../activity/index.js';
import {
  type DeviceDirectory,
  type DeviceGate,
  EVERYTHING,
  type Principal,
  type Reach,
  type ReachSource,
} from '../devicehub/index.js';
import { HttpError } from '../http/errors.js';
import { type RateLimitWindows, TOO_MANY_REQUESTS } from '../http/rate-limit.js';
import { nowIso } from '../storage/columns.js';
import type { UserRecord, UsersRepository } from '../users/index.js';
import { TOKENS_ERRORS as E } from './tokens.errors.js';
import { tokenReach } from './tokens.reach.js';
import type { ApiTokenRecord, ApiTokensRepository } from './tokens.repository.js';
import type { CreateToken } from './tokens.schemas.js';
import { hashApiToken, isWellFormed, newApiToken } from './tokens.secret.js';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** "Last used" is written at most this often per token and instance, unless the address changes. */
const TOUCH_EVERY_MS = MINUTE_MS;

export interface ApiTokensServiceDeps {
  repository: ApiTokensRepository;
  users: Pick<UsersRepository, 'findById'>;
  /** Owners' reach (their access rules), never a token's. */
  reach: ReachSource;
  devices: Pick<DeviceDirectory, 'has' | 'roomOf'>;
  gate: Pick<DeviceGate, 'visible'>;
  activity: ActivityLog;
  /** API_TOKEN_RATE_LIMIT calls per token a minute, counted in the database; none or 0: not limited. */
  limit?: { windows: RateLimitWindows; perMinute: number } | undefined;
  now?: () => number;
  log?: { debug(object: object, message: string): void };
}

/** A live token and the caller it makes: its owner's record, acting as the token. */
export interface ActingToken {
  token: ApiTokenRecord;
  caller: UserRecord;
}

const invalid = () => new HttpError(401, E.invalid);

/** A token in the activity log: its own id and name, and the person it acts for (docs/activity.md#entries). */
export const apiActor = (
  token: ApiTokenRecord,
  owner: Pick<UserRecord, 'id' | 'firstName' | 'lastName' | 'email'>,
): ActivityActor => ({
  type: 'api',
  id: token.id,
  label: token.name,
  owner: { id: owner.id, label: `${owner.firstName} ${owner.lastName}`.trim() || owner.email },
});

const canAct = (user: UserRecord) => !(user.lockoutEnabled && user.lockoutReason === 'admin_lock');

/**
 * docs/api.md#api-tokens: tokens for scripts. Created, listed and revoked by their owners (admins:
 * everyone's); every use looks the token up by its hash (one indexed read, the same for an unknown
 * and a revoked token), then reads its owner, whose reach it never exceeds.
 */
export class ApiTokensService {
  private readonly now: () => number;
  /** The callers tokens made: a reach asked for one of them is the token's. */
  private readonly acting = new WeakMap<UserRecord, ApiTokenRecord>();
  private readonly touched = new Map<string, { at: number; ip: string }>();
  private readonly revoked = new Set<(ids: readonly string[]) => void>();

  constructor(private readonly deps: ApiTokensServiceDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Called with the ids of tokens revoked on this instance. */
  onRevoked(listener: (ids: readonly string[]) => void): () => void {
    this.revoked.add(listener);
    return () => this.revoked.delete(listener);
  }

  private view(token: ApiTokenRecord): ApiToken {
    return {
      id: token.id,
      name: token.name,
      scope: token.scope,
      rooms: token.rooms,
      devices: token.devices,
      created_at: token.createdAt,
      expires_at: token.expiresAt,
      last_used_at: token.lastUsedAt,
      last_used_ip: token.lastUsedIp,
      owner: { id: token.ownerId, label: token.ownerLabel },
    };
  }

  /** GET /api/auth/tokens: the caller's own; an admin's, everyone's. */
  async list(caller: UserRecord): Promise<ApiTokenList> {
    const tokens = await this.deps.repository.list(caller.role === 'admin' ? undefined : caller.id);
    return { tokens: tokens.map((token) => this.view(token)) };
  }

  /**
   * POST /api/auth/tokens: what it names must exist and be within the owner's sight (else it is
   * "unknown", revealing nothing), and a control token may name only what the owner controls. The
   * token is answered once and stored as its hash.
   */
  async create(caller: UserRecord, input: CreateToken): Promise<CreatedApiToken> {
    const { repository, devices, gate } = this.deps;
    const owner = await this.deps.reach.reachOf(caller);
    const rooms = await repository.existingRooms(input.rooms);
    const inRoom = (roomId: string) =>
      gate
        .visible(EVERYTHING)
        .filter((device) => device.room_id === roomId)
        .map((device) => device.id);
    const most = input.scope === 'control' ? 'control' : 'view';
    for (const id of input.rooms) {
      const levels = [owner.levelOfRoom(id), ...inRoom(id).map((device) => owner.levelOf(device))];
      if (!rooms.has(id) || levels.every((level) => level === 'none'))
        throw new HttpError(400, E.unknownRoom(id));
      if (!levels.some((level) => accessAtLeast(level, most))) throw new HttpError(403, E.beyondOwner(id));
    }
    for (const id of input.devices) {
      const level = devices.has(id) ? owner.levelOf(id) : 'none';
      if (level === 'none') throw new HttpError(400, E.unknownDevice(id));
      if (!accessAtLeast(level, most)) throw new HttpError(403, E.beyondOwner(id));
    }
    const now = this.now();
    const days = API_TOKEN_EXPIRIES[input.expires_in];
    const secret = newApiToken();
    const id = crypto.randomUUID();
    await repository.insert({
      id,
      secretHash: hashApiToken(secret),
      ownerId: caller.id,
      name: input.name,
      scope: input.scope,
      rooms: input.rooms,
      devices: input.devices,
      createdAt: nowIso(now),
      expiresAt: days === null ? null : nowIso(now + days * DAY_MS),
    });
    const stored = await repository.byId(id);
    if (!stored) throw new Error('the new API token was not stored');
    return { ...this.view(stored), token: secret };
  }

  /** DELETE /api/auth/tokens/:id: the caller's own, or anyone's for an admin; else 404. */
  async revoke(caller: UserRecord, id: string): Promise<ApiTokenRecord> {
    const token = await this.deps.repository.byId(id);
    if (!token || token.revokedAt !== null || (token.ownerId !== caller.id && caller.role !== 'admin')) {
      throw new HttpError(404, E.notFound);
    }
    if (!(await this.deps.repository.revoke(id, nowIso(this.now())))) throw new HttpError(404, E.notFound);
    this.tell([id]);
    return token;
  }

  /** The owner's lock, password reset or sign-out everywhere: every token of theirs, at once. */
  async revokeAllOf(ownerId: string): Promise<void> {
    const ids = await this.deps.repository.revokeAllOf(ownerId, nowIso(this.now()));
    if (ids.length > 0) this.tell(ids);
  }

  /**
   * The live token behind a text, and its owner: well-formed, known, not revoked, not expired, and
   * its owner there and not locked by an administrator. Unknown and revoked tokens take the same
   * path (one read by hash, then a check of the row read).
   */
  async resolve(text: string): Promise<{ token: ApiTokenRecord; owner: UserRecord } | undefined> {
    if (!isWellFormed(text)) return undefined;
    const token = await this.deps.repository.byHash(hashApiToken(text));
    if (!token || token.revokedAt !== null) return undefined;
    if (token.expiresAt !== null && Date.parse(token.expiresAt) <= this.now()) return undefined;
    const owner = await this.deps.users.findById(token.ownerId);
    if (!owner || !canAct(owner)) return undefined;
    return { token, owner };
  }

  /**
   * A token's call: the caller it acts as (its owner's record, which the activity log names as the
   * token and whose reach is the token's), or the 401. Over its rate limit, `over` holds the 429 to
   * answer (and whether it is the window's first, the one worth recording).
   */
  async act(
    text: string,
    from: { ip: string },
  ): Promise<ActingToken & { over?: { error: HttpError; first: boolean } }> {
    const found = await this.resolve(text);
    if (!found) throw invalid();
    const caller = actAs({ ...found.owner }, apiActor(found.token, found.owner));
    this.acting.set(caller, found.token);
    const over = await this.spend(found.token);
    if (over) return { token: found.token, caller, over };
    this.touch(found.token, from.ip);
    return { token: found.token, caller };
  }

  /** The token a caller acts as, if a token made it. */
  tokenOf(caller: Pick<UserRecord, 'id'>): ApiTokenRecord | undefined {
    return this.acting.get(caller as UserRecord);
  }

  /** `reach`, the owner's, as the caller's token narrows it (a person's is unchanged). */
  narrow(caller: Pick<UserRecord, 'id'>, reach: Reach): Reach {
    const token = this.tokenOf(caller);
    return token ? tokenReach(token, reach, (id) => this.deps.devices.roomOf(id)) : reach;
  }

  /** A token on the device stream: its principal and reach now, or undefined. */
  async forStream(text: string, from?: { address: string; client?: string }) {
    const found = await this.resolve(text);
    if (!found) return undefined;
    if (from) {
      if (await this.spend(found.token)) return 'rate-limited' as const;
      this.touch(found.token, from.address);
    }
    const reach = tokenReach(found.token, await this.deps.reach.reachOf(found.owner), (id) =>
      this.deps.devices.roomOf(id),
    );
    const actor = apiActor(found.token, found.owner);
    const principal: Principal & { kind: 'api' } = {
      kind: 'api',
      tokenId: found.token.id,
      label: found.token.name,
      owner: actor.owner ?? { id: found.owner.id, label: found.owner.email },
    };
    return { principal, reach };
  }

  /** Counts one call; over the limit, the 429 with Retry-After (the window's end). */
  private async spend(token: ApiTokenRecord): Promise<{ error: HttpError; first: boolean } | undefined> {
    const limit = this.deps.limit;
    if (!limit || limit.perMinute <= 0) return undefined;
    const now = this.now();
    const { hits, endsAt } = await limit.windows.hit(`api-token:${token.id}`, MINUTE_MS, now);
    if (hits <= limit.perMinute) return undefined;
    const seconds = Math.max(1, Math.ceil((endsAt - now) / 1000));
    const error = new HttpError(429, TOO_MANY_REQUESTS, {}, { 'retry-after': String(seconds) });
    return { error, first: hits === limit.perMinute + 1 };
  }

  /** Last used: written at most once a minute per token (and whenever the address changes). */
  private touch(token: ApiTokenRecord, ip: string) {
    const now = this.now();
    const last = this.touched.get(token.id);
    if (last && last.ip === ip && now - last.at < TOUCH_EVERY_MS) return;
    this.touched.set(token.id, { at: now, ip });
    if (this.touched.size > 10_000) this.touched.delete(this.touched.keys().next().value as string);
    this.deps.repository
      .touch(token.id, nowIso(now), ip)
      .catch((error) => this.deps.log?.debug({ err: error }, 'recording an API token use failed'));
  }

  private tell(ids: readonly string[]) {
    for (const listener of this.revoked) listener(ids);
  }
}

/** Whether a bearer token is an API token (as opposed to a person's access token). */
export const isApiToken = (token: string): boolean => token.startsWith(API_TOKEN_PREFIX);
