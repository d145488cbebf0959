import {
  accessAtLeast,
  type CreatedPass,
  type DeviceCommandRequest,
  neverCloses,
  PASS_NEVER_CLOSED_MAX_DAYS,
  type Pass,
  type PassDevice,
  type PassInfo,
  type PassList,
} from '@hearth/contracts';
import { type ActivityLog, type ActivityOrigin, type ActivityRecord, resultOf } from '../activity/index.js';
import {
  type DeviceDirectory,
  type DeviceGate,
  EVERYTHING,
  type Principal,
  type Reach,
} from '../devicehub/index.js';
import { HttpError } from '../http/errors.js';
import { nowIso } from '../storage/columns.js';
import type { UserRecord } from '../users/index.js';
import { PASSES_ERRORS as E } from './passes.errors.js';
import { type CreatorReach, type PassSight, passReach, passSight, seesPass } from './passes.reach.js';
import type { PassesRepository, PassRecord } from './passes.repository.js';
import { type PassState, passState } from './passes.schedule.js';
import type { CreatePass } from './passes.schemas.js';
import { hashPassToken, newPassToken } from './passes.token.js';

export interface PassesServiceDeps {
  repository: PassesRepository;
  /** Which devices the hub lists, and their rooms. */
  devices: Pick<DeviceDirectory, 'has' | 'roomOf'>;
  /** The hub's devices as a reach sees them, and commands checked against it. */
  gate: DeviceGate;
  /** The most a pass's creator may do now (their access rules). */
  creatorReach: CreatorReach;
  activity: ActivityLog;
  /** PUBLIC_URL: links are `${publicUrl}/pass/{token}`. */
  publicUrl: string;
  /** HOUSEHOLD_TIME_ZONE: weekly schedules are read in it. */
  timeZone: string;
  now?: () => number;
}

/** A pass that works now: who it is on the stream and in the log, and what it reaches. */
export interface OpenPass {
  pass: PassRecord;
  principal: Principal & { kind: 'pass' };
  reach: Reach;
}

const DAY_MS = 86_400_000;
const ms = (iso: string | null) => (iso === null ? null : Date.parse(iso));

/** A pass as the stream and the activity log name it: its label (docs/activity.md#entries). */
export const passPrincipal = (pass: Pick<PassRecord, 'id' | 'label'>): Principal & { kind: 'pass' } => ({
  kind: 'pass',
  passId: pass.id,
  label: pass.label ?? 'Guest pass',
});
const passActor = (pass: Pick<PassRecord, 'id' | 'label'>) => ({
  type: 'pass' as const,
  id: pass.id,
  label: pass.label ?? 'Guest pass',
});

/**
 * docs/passes.md: guest passes. Managers create, list, pause and revoke them; a guest's page uses
 * the token alone. Every look-up by token runs the same path (hash, one query, then the checks),
 * whether the token is wrong, revoked or good.
 */
export class PassesService {
  private readonly now: () => number;
  private readonly changed = new Set<(passId: string) => void>();

  constructor(private readonly deps: PassesServiceDeps) {
    this.now = deps.now ?? Date.now;
  }

  get timeZone(): string {
    return this.deps.timeZone;
  }

  /** Called with a pass's id when it is paused, resumed or revoked on this instance. */
  onChange(listener: (passId: string) => void): () => void {
    this.changed.add(listener);
    return () => this.changed.delete(listener);
  }

  state(pass: PassRecord, now = this.now()): PassState {
    return passState(
      { startsAt: ms(pass.startsAt), endsAt: ms(pass.endsAt), schedule: pass.schedule, paused: pass.paused },
      now,
      this.deps.timeZone,
    );
  }

  private view(pass: PassRecord): Pass {
    const state = this.state(pass);
    return {
      id: pass.id,
      label: pass.label,
      level: pass.level,
      rooms: pass.rooms,
      devices: pass.devices,
      starts_at: pass.startsAt,
      ends_at: pass.endsAt,
      schedule: pass.schedule,
      paused: pass.paused,
      status: state.status,
      next_start: state.nextStart === null ? null : nowIso(state.nextStart),
      created_at: pass.createdAt,
      created_by: { id: pass.creator.id, label: pass.creator.label },
    };
  }

  /** GET /api/passes: the passes naming nothing hidden from the caller (docs/passes.md#who-sees-which-passes). */
  async list(caller: UserRecord): Promise<PassList> {
    const [passes, sees] = await Promise.all([this.deps.repository.list(), this.sight(caller)]);
    return {
      passes: passes.filter((pass) => seesPass(pass, sees)).map((pass) => this.view(pass)),
      time_zone: this.deps.timeZone,
    };
  }

  /** What the caller sees of the household: a pass naming anything else is not theirs to see. */
  private async sight(caller: UserRecord): Promise<PassSight> {
    return passSight(await this.deps.creatorReach(caller.id), (reach) => this.deps.gate.visible(reach));
  }

  /** A pass the caller sees, not revoked; else 404 (a pass naming what they may not see is as unknown). */
  private async seen(caller: UserRecord, id: string): Promise<PassRecord> {
    const [pass, sees] = await Promise.all([this.deps.repository.byId(id), this.sight(caller)]);
    if (!pass || pass.revokedAt !== null || !seesPass(pass, sees)) throw new HttpError(404, E.passNotFound);
    return pass;
  }

  /**
   * The first device or room of what the pass covers now beyond the level `reach` has on it
   * (docs/passes.md#what-a-pass-covers): creating a pass, and resuming one, hand that out.
   */
  private beyond(
    reach: Reach,
    pass: Pick<PassRecord, 'level' | 'devices'> & { rooms: ReadonlySet<string> },
  ): string | undefined {
    const inRooms = this.deps.gate
      .visible(EVERYTHING)
      .filter((device) => device.room_id && pass.rooms.has(device.room_id));
    return (
      [...pass.devices, ...inRooms.map((device) => device.id)].find(
        (id) => !accessAtLeast(reach.levelOf(id), pass.level),
      ) ?? [...pass.rooms].find((id) => !accessAtLeast(reach.levelOfRoom(id), pass.level))
    );
  }

  /** POST /api/passes: checks what it covers against the creator's own reach, then stores its hash. */
  async create(caller: UserRecord, input: CreatePass): Promise<CreatedPass> {
    const { repository, devices } = this.deps;
    const now = this.now();
    if (input.ends_at !== undefined && Date.parse(input.ends_at) <= now)
      throw new HttpError(400, E.endInPast);
    // A pass that never closes is an account in disguise unless it ends (docs/passes.md#validity).
    if (neverCloses(input.schedule)) {
      const start = input.starts_at === undefined ? now : Math.max(now, Date.parse(input.starts_at));
      const end = input.ends_at === undefined ? Number.POSITIVE_INFINITY : Date.parse(input.ends_at);
      if (end - start > PASS_NEVER_CLOSED_MAX_DAYS * DAY_MS) throw new HttpError(400, E.neverCloses);
    }
    const rooms = await repository.existingRooms(input.rooms);
    const unknownRoom = input.rooms.find((id) => !rooms.has(id));
    if (unknownRoom !== undefined) throw new HttpError(400, E.unknownRoom(unknownRoom));
    const unknownDevice = input.devices.find((id) => !devices.has(id));
    if (unknownDevice !== undefined) throw new HttpError(400, E.unknownDevice(unknownDevice));
    const mine = await this.deps.creatorReach(caller.id);
    const beyond = this.beyond(mine, { level: input.level, devices: input.devices, rooms });
    if (beyond !== undefined) throw new HttpError(403, E.beyondCreator(beyond));
    const token = newPassToken();
    const id = crypto.randomUUID();
    await repository.insert({
      id,
      tokenHash: hashPassToken(token),
      label: input.label,
      level: input.level,
      rooms: input.rooms,
      devices: input.devices,
      startsAt: input.starts_at ?? null,
      endsAt: input.ends_at ?? null,
      schedule: input.schedule ?? null,
      createdBy: caller.id,
      createdAt: nowIso(now),
    });
    const stored = await repository.byId(id);
    if (!stored) throw new Error('the new pass was not stored');
    return { ...this.view(stored), url: `${this.deps.publicUrl}/pass/${token}` };
  }

  /**
   * PATCH /api/passes/{id}: pausing takes access away, so anyone who sees the pass may; resuming
   * hands it out again, so only within what the caller could have made it with (as creating).
   */
  async setPaused(caller: UserRecord, id: string, paused: boolean): Promise<Pass> {
    const before = await this.seen(caller, id);
    if (!paused && before.paused) {
      const mine = await this.deps.creatorReach(caller.id);
      const beyond = mine.everything
        ? undefined
        : this.beyond(mine, { ...before, rooms: new Set(before.rooms) });
      if (beyond !== undefined) throw new HttpError(403, E.beyondCreator(beyond));
    }
    if (!(await this.deps.repository.setPaused(id, paused, nowIso(this.now())))) {
      throw new HttpError(404, E.passNotFound);
    }
    this.tell(id);
    const pass = await this.deps.repository.byId(id);
    if (!pass) throw new HttpError(404, E.passNotFound);
    return this.view(pass);
  }

  async revoke(caller: UserRecord, id: string): Promise<void> {
    await this.seen(caller, id);
    if (!(await this.deps.repository.revoke(id, nowIso(this.now()))))
      throw new HttpError(404, E.passNotFound);
    this.tell(id);
  }

  /** The pass of a token: one hash, one query, the same 404 for a wrong or a revoked token. */
  async byToken(token: string): Promise<PassRecord> {
    const pass = await this.stored(token);
    if (pass.revokedAt !== null) throw new HttpError(404, E.passNotFound);
    return pass;
  }

  /** The stored pass of a token, revoked or not (its uses are recorded); 404 for a wrong token. */
  private async stored(token: string): Promise<PassRecord> {
    const pass = await this.deps.repository.byTokenHash(hashPassToken(token));
    if (pass === undefined) throw new HttpError(404, E.passNotFound);
    return pass;
  }

  /** GET /api/pass/{token}: what the page says about the pass, whether or not it works now. */
  async info(token: string): Promise<PassInfo> {
    const pass = await this.byToken(token);
    const state = this.state(pass);
    return {
      label: pass.label,
      level: pass.level,
      status: state.status,
      starts_at: pass.startsAt,
      ends_at: pass.endsAt,
      schedule: pass.schedule,
      next_start: state.nextStart === null ? null : nowIso(state.nextStart),
      time_zone: this.deps.timeZone,
    };
  }

  /** The pass of a token if it works now, with its reach; else the 404 or the 403 saying why. */
  async open(token: string): Promise<OpenPass> {
    const pass = await this.byToken(token);
    return this.opened(pass);
  }

  /** A stored pass that must work now (the stream re-checks its connections with it). */
  async opened(pass: PassRecord): Promise<OpenPass> {
    if (pass.revokedAt !== null) throw new HttpError(404, E.passNotFound);
    const state = this.state(pass);
    if (state.status !== 'active') {
      const message =
        state.status === 'expired'
          ? E.expired
          : state.status === 'paused'
            ? E.paused
            : pass.startsAt !== null && Date.parse(pass.startsAt) > this.now()
              ? E.notYetValid
              : E.outsideHours;
      throw new HttpError(403, message, {
        status: state.status,
        next_start: state.nextStart === null ? null : nowIso(state.nextStart),
      });
    }
    const creator = await this.deps.creatorReach(pass.creator.id);
    const reach = passReach(pass, creator, (id) => this.deps.devices.roomOf(id));
    return { pass, principal: passPrincipal(pass), reach };
  }

  /** GET /api/pass/{token}/devices: the pass's devices; opening the page is recorded. */
  async devices(token: string, origin: ActivityOrigin): Promise<PassDevice[]> {
    const { reach } = await this.use(token, origin, 'open');
    return this.deps.gate.visible(reach) as PassDevice[];
  }

  /**
   * One use of the pass by its token (docs/passes.md#activity): the pass if it works now, and one
   * `pass.use` entry with `action`, ok or refused with the reason the guest got (a revoked pass's
   * too). A wrong token names no pass and leaves no entry.
   */
  private async use(token: string, origin: ActivityOrigin, action: 'open' | 'connect'): Promise<OpenPass> {
    const pass = await this.stored(token);
    const entry = { actor: passActor(pass), ...origin, kind: 'pass.use' as const, detail: { action } };
    try {
      const open = await this.opened(pass);
      this.deps.activity.record({ ...entry, result: 'ok' });
      return open;
    } catch (error) {
      this.record(entry, error);
      throw error;
    }
  }

  /**
   * POST /api/pass/{token}/devices/{id}/commands: one `device.command` entry with the pass as actor
   * (the hub's gate records it; a pass that does not work now is recorded here).
   */
  async command(
    token: string,
    deviceId: string,
    request: DeviceCommandRequest,
    origin: ActivityOrigin,
  ): Promise<{ device_id: string; status: 'sent' }> {
    const pass = await this.stored(token);
    let open: OpenPass;
    try {
      open = await this.opened(pass);
    } catch (error) {
      this.record(
        {
          actor: passActor(pass),
          ...origin,
          kind: 'device.command',
          device_id: deviceId,
          detail: { state: request.state },
        },
        error,
      );
      throw error;
    }
    return this.deps.gate.command(open.reach, open.principal, deviceId, request, origin);
  }

  /**
   * The stream's CONNECT with a pass (docs/passes.md#stream): the pass if it works now, else
   * undefined. A CONNECT (`from` its client) is recorded as a use; reading an open connection's
   * pass again is not.
   */
  async forStream(token: string, from?: ActivityOrigin): Promise<OpenPass | undefined> {
    try {
      return await (from ? this.use(token, from, 'connect') : this.open(token));
    } catch (error) {
      if (error instanceof HttpError) return undefined;
      throw error;
    }
  }

  private record(entry: Omit<ActivityRecord, 'result'>, error: unknown) {
    const reason = error instanceof HttpError ? error.message : 'Internal error';
    this.deps.activity.record({ ...entry, result: resultOf(error), detail: { ...entry.detail, reason } });
  }

  private tell(passId: string) {
    for (const listener of this.changed) listener(passId);
  }
}
