import {
  ACCESS_MESSAGES,
  type ActivityActor,
  type Device,
  type DeviceAccess,
  type DeviceCommandRequest,
  type DeviceRemovedEvent,
  type DeviceState,
  devicehubTopics,
  isManager,
  type RemovedDevice,
  roomTopics,
} from '@hearth/contracts';
import type { Logger } from 'pino';
import { z } from 'zod';
import {
  type ActivityLog,
  type ActivityOrigin,
  type ActivityRecord,
  noActivity,
  resultOf,
  tracked,
  userActor,
} from '../activity/index.js';
import { hasControlCharacter } from '../http/control-characters.js';
import { HttpError } from '../http/errors.js';
import { nowIso } from '../storage/columns.js';
import type { AdapterEvents, DeviceAdapter, DeviceDescription } from './adapters/adapter.js';
import { DevicehubMessages } from './devicehub.errors.js';
import type { DevicesRepository, Presence, StateEntry } from './devicehub.repository.js';
import { deviceRenameCommand, deviceSetCommand } from './devicehub.schemas.js';
import type { EdgeAbout, EdgeBroker, EdgeCaller, EdgeCommand, EventAudience } from './edge/edge-broker.js';
import { LogOnce } from './log-once.js';
import type { Principal, Reach } from './reach.js';
import { MAX_STATE_BYTES, MAX_VALUE_BYTES, mergeBounded, mergeInto } from './state-limits.js';
import type { StateWriter } from './state-writer.js';
import { installsUpdate } from './update-install.js';

export interface DeviceHubServiceOptions {
  repository: DevicesRepository;
  /** Every source of devices, each serving the devices of its `protocol`. */
  adapters: DeviceAdapter[];
  edge: EdgeBroker;
  writer: StateWriter;
  log: Logger;
  /** Most devices the registry lists at once (DEVICEHUB_MAX_DEVICES). */
  maxDevices?: number;
  /** Where commands and renames from the stream are recorded (docs/activity.md). */
  activity?: ActivityLog;
}

const METADATA_KEYS = [
  'name',
  'protocol',
  'manufacturer',
  'model',
  'type',
  'description',
  'firmware',
  'capabilities',
  'inputs',
] as const;

const LIST_RETRY_MS = 2000;
/** How many removed devices' last availability the hub remembers for their return. */
const MAX_DEPARTED = 20_000;
export const DEFAULT_MAX_DEVICES = 5000;
/** How many of the names a warning about skipped devices spells out. */
const NAMED_IN_WARNING = 10;

/** The name the Devices page shows and sorts by (web: model/device.model.ts displayName). */
function displayName(device: Device): string {
  const name = device.name?.trim();
  if (name) return name;
  const makeAndModel = [device.manufacturer, device.model]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  return makeAndModel || device.external_id || device.id;
}

// One collator for every comparison, as the page sorts: numeric, case-insensitive by display name.
const collator = new Intl.Collator(undefined, { numeric: true });

/**
 * Sees the hub's updates as they happen (the history domain records them). Called synchronously on
 * the stream's path: a listener only notes what it needs and returns; what it throws is logged once.
 */
export interface DeviceListener {
  /** `state` is what arrived (not the merged state); `retained` when the bus replayed it. */
  stateReported?(device: Device, state: DeviceState, retained: boolean): void;
  /** `first`: the first availability heard of the device since this instance started. */
  onlineChanged?(device: Device, online: boolean, first: boolean): void;
  /** A device the registry did not list (or listed as removed) is listed now. */
  deviceJoined?(device: Device): void;
  /** A device left its ecosystem's list (the registry keeps it as removed). */
  deviceLeft?(device: Device): void;
}

/** Who an activity entry names for a principal: the person, the pass's label, or the API token and its owner. */
export const actorOf = (principal: Principal): ActivityActor =>
  principal.kind === 'user'
    ? userActor(principal.user)
    : principal.kind === 'pass'
      ? { type: 'pass', id: principal.passId, label: principal.label }
      : { type: 'api', id: principal.tokenId, label: principal.label, owner: principal.owner };

/**
 * JSON.stringify that serialises each object once: devices of one model share their capabilities
 * and inputs, so comparing a list of 2000 devices makes a few hundred strings, not thousands.
 * For one list: the strings go with it.
 */
function onceEach(): (value: unknown) => string | undefined {
  const seen = new Map<unknown, string | undefined>();
  return (value) => {
    if (typeof value !== 'object' || value === null) return JSON.stringify(value);
    if (!seen.has(value)) seen.set(value, JSON.stringify(value));
    return seen.get(value);
  };
}

const metadataDiffers = (
  device: Device,
  description: DeviceDescription,
  json: (value: unknown) => string | undefined,
) => METADATA_KEYS.some((key) => json(device[key]) !== json(description[key]));

/**
 * The hub's model of every device: fed by the adapter, kept in the registry, published to
 * browsers through the edge broker; commands and renames go back through the adapter.
 */
export class DeviceHubService {
  private readonly devices = new Map<string, Device>();
  private readonly idByExternal = new Map<string, string>();
  /** State that arrived for a listed device before the registry gave it an id. */
  private readonly earlyState = new Map<
    string,
    { protocol: string; state: DeviceState; lastSeen: string | null; retained: boolean }
  >();
  /** Availability that arrived for a listed device before the registry gave it an id. */
  private readonly earlyAvailability = new Map<string, { protocol: string; online: boolean }>();
  /** Devices whose availability the bus has reported (the others go online when they report state). */
  private readonly availabilityKnown = new Set<string>();
  /** When each device's state last arrived (ms), to ask for fresh state after a bus outage. */
  private readonly stateArrived = new Map<string, number>();
  /**
   * What the hub knew of the devices a list took away, by external id (the newest MAX_DEPARTED): a
   * device that returns shows its last known availability, which the bus will not repeat.
   */
  private readonly departed = new Map<string, { online: boolean; availabilityKnown: boolean }>();
  /** Devices someone assigned to a room or out of one since the start (their rows say so too). */
  private readonly placed = new Set<string>();
  private queue: Promise<void> = Promise.resolve();
  /** Each source's newest complete list, and the retry of one the registry could not take. */
  private readonly latestList = new Map<string, DeviceDescription[]>();
  private readonly listRetry = new Map<string, NodeJS.Timeout>();
  private readonly adapters = new Map<string, DeviceAdapter>();
  private closed = false;
  private registryFailing = false;
  private readonly once: LogOnce;
  /** Bumped on every change browsers are told of: the device list's ETag (GET /api/devicehub/devices). */
  private version = 0;
  /** The devices in the page's order, until a device is added, renamed or removed. */
  private ordered: Device[] | undefined;
  private readonly boot = Date.now().toString(36);
  private readonly listeners = new Set<DeviceListener>();
  /** Each device's state topic and what it is about, built once rather than per message. */
  private readonly stateRoutes = new Map<string, { topic: string; about: EdgeAbout }>();
  /** Each device's entry in the state writer (markForWriter). */
  private readonly writerEntries = new Map<string, StateEntry>();

  constructor(private readonly options: DeviceHubServiceOptions) {
    this.once = new LogOnce(options.log);
    for (const adapter of options.adapters) this.adapters.set(adapter.protocol, adapter);
  }

  /**
   * How the adapter of `protocol` reports to the hub: its lists, removals, state and availability
   * concern only its own devices (a device another source lists is left alone).
   */
  events(protocol: string): AdapterEvents {
    return {
      devicesListed: (devices, complete = true) => this.devicesListed(protocol, devices, complete),
      deviceRemoved: (externalId) => this.deviceRemoved(protocol, externalId),
      stateReported: (externalId, state, lastSeen, retained) =>
        this.stateReported(protocol, externalId, state, lastSeen, retained),
      availabilityChanged: (externalId, online) => this.availabilityChanged(protocol, externalId, online),
    };
  }

  /** The adapter that serves this device; 503 when its source is not running. */
  private adapterOf(device: Device): DeviceAdapter {
    const adapter = this.adapters.get(device.protocol);
    if (!adapter) throw new HttpError(503, DevicehubMessages.bridgeOffline);
    return adapter;
  }

  /**
   * Loads the registry: the last known state is served, every device offline until the bus says
   * otherwise (on PostgreSQL the module then adopts the registry's online flags, adoptPresence).
   */
  async load() {
    for (const device of await this.options.repository.all()) {
      // State stored before the limits existed may be too large: it is cut once, here.
      device.state = mergeBounded({}, device.state).state;
      this.track(device);
    }
    for (const device of this.devices.values()) this.publishState(device);
  }

  /** Adds a listener of state and availability updates; returns its removal. */
  listen(listener: DeviceListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  list(): Device[] {
    return [...this.devices.values()];
  }

  /** The listed devices of these ids, in their order; unknown ids are left out. */
  byIds(ids: string[]): Device[] {
    return [...new Set(ids)].flatMap((id) => this.devices.get(id) ?? []);
  }

  /** The first `count` devices in the order the Devices page shows them (by name). */
  firstByName(count: number): Device[] {
    return this.byName().slice(0, count);
  }

  /**
   * docs/access.md#where-it-is-enforced: of these devices, those the reach may view, each with the
   * caller's `access`. `first`: only that many (in the given order).
   */
  visibleTo(reach: Reach, devices: Device[], first = Number.POSITIVE_INFINITY): Device[] {
    const out: Device[] = [];
    for (const device of devices) {
      if (out.length >= first) break;
      const level = reach.everything ? 'control' : reach.levelOf(device.id);
      if (level !== 'none') out.push({ ...device, access: level });
    }
    return out;
  }

  /** Every device in the Devices page's order (by name), kept until a device is added, renamed or removed. */
  byName(): Device[] {
    if (!this.ordered) {
      const named = this.list().map((device) => ({ device, key: displayName(device).toLowerCase() }));
      named.sort((a, b) => {
        const byName = collator.compare(a.key, b.key);
        return byName !== 0 ? byName : a.device.id < b.device.id ? -1 : a.device.id > b.device.id ? 1 : 0;
      });
      this.ordered = named.map((entry) => entry.device);
    }
    return this.ordered;
  }

  /** Changes whenever the device list would read differently (a weak ETag, new for each start). */
  listTag(): string {
    return `${this.boot}-${this.version}`;
  }

  get(id: string): Device {
    const device = this.devices.get(id);
    if (!device) throw new HttpError(404, DevicehubMessages.deviceNotFound);
    return device;
  }

  /** Whether the device's availability has been heard since the start (the others go online with state). */
  reportsAvailability(id: string): boolean {
    return this.availabilityKnown.has(id);
  }

  /** Whether the hub lists this device (a removed one is not). */
  has(id: string): boolean {
    return this.devices.has(id);
  }

  /** The room of a listed device (null: unassigned; undefined: not listed). */
  roomOf(id: string): string | null | undefined {
    return this.devices.get(id)?.room_id;
  }

  /**
   * docs/rooms.md#assignment: the rooms domain has stored these devices' new room (null: none);
   * the hub's devices follow and browsers get a `device.upsert` for each.
   */
  roomsAssigned(ids: readonly string[], roomId: string | null) {
    for (const id of ids) {
      this.placed.add(id);
      const device = this.devices.get(id);
      if (!device) continue;
      device.room_id = roomId;
      device.suggested_room = null;
      this.publishUpsert(device);
    }
  }

  /**
   * An event for browsers under P/events (docs/rooms.md#events); not retained. A connection with
   * a narrower reach gets `room.upsert` only for rooms holding a device it may view, and
   * `favourites.changed` only for its own account; others as `audience` says (docs/access.md#stream).
   */
  publishEvent(topic: string, payload: unknown, audience?: EventAudience) {
    const id = (payload as { id?: unknown; user_id?: unknown } | null) ?? {};
    const about: EdgeAbout | undefined =
      audience === 'managers'
        ? { type: 'managers' }
        : audience
          ? { type: 'sight', rooms: audience.rooms, devices: audience.devices ?? [] }
          : topic === roomTopics.upsert && typeof id.id === 'string'
            ? { type: 'room', roomId: id.id }
            : topic === roomTopics.favouritesChanged && typeof id.user_id === 'string'
              ? { type: 'favourites', userId: id.user_id }
              : undefined;
    this.publish(topic, JSON.stringify(payload), false, about);
  }

  /**
   * The listed device a caller may act on with `wanted` (docs/access.md#messages): out of reach (or
   * not listed) 404 "Device not found", view-only 403.
   */
  reachable(id: string, reach: Reach, wanted: DeviceAccess = 'control'): Device {
    const device = this.get(id);
    if (reach.everything) return device;
    const level = reach.levelOf(id);
    if (level === 'none') throw new HttpError(404, DevicehubMessages.deviceNotFound);
    if (level === 'view' && wanted === 'control') throw new HttpError(403, ACCESS_MESSAGES.viewOnly);
    return device;
  }

  /** Devices that left their ecosystem's list, kept with their ids until purged. */
  removedDevices(): Promise<RemovedDevice[]> {
    return this.options.repository.removed();
  }

  /** Deletes removed devices for good: one (404 unless it is a removed device) or all of them. */
  async purgeRemoved(id?: string): Promise<{ purged: number }> {
    const purged = await this.options.repository.purgeRemoved(id);
    if (id !== undefined && purged === 0) throw new HttpError(404, DevicehubMessages.deviceNotFound);
    if (purged > 0) this.options.log.info({ purged, ...(id ? { id } : {}) }, 'removed devices purged');
    return { purged };
  }

  /** Devices whose last state arrived before `time` (ms), or never. */
  statesOlderThan(time: number): Device[] {
    return this.list().filter((device) => !this.heardSince(device.id, time));
  }

  heardSince(id: string, time: number): boolean {
    return (this.stateArrived.get(id) ?? 0) >= time;
  }

  /** Resolves once every list and removal received so far is in the registry. */
  settled(): Promise<void> {
    return this.queue;
  }

  /** Sends a command; `reach`: the caller's (docs/access.md), checked first. */
  async command(
    id: string,
    request: DeviceCommandRequest,
    reach?: Reach,
  ): Promise<{ device_id: string; status: 'sent' }> {
    return (await this.send(id, request, reach)).answer;
  }

  /**
   * docs/activity.md#kinds: a command sent for `as.actor` (`as.reach` checked first) and recorded
   * as one `device.command` entry: `ok` with what was sent (keys the device does not take are not
   * sent, so not recorded), or the refusal or failure with the state as asked and its reason.
   * Over REST, the stream and a guest pass alike.
   */
  async commandAs(
    as: {
      actor: ActivityActor;
      origin?: ActivityOrigin;
      reach?: () => Reach | Promise<Reach>;
      via?: 'stream';
      /** An admin: may install a device's firmware update (docs/devicehub.md#capability). */
      admin?: boolean;
    },
    id: string,
    request: DeviceCommandRequest,
  ): Promise<{ device_id: string; status: 'sent' }> {
    const about = this.about(id);
    const via = as.via ? { via: as.via } : {};
    const entry = {
      actor: as.actor,
      ...as.origin,
      kind: 'device.command' as const,
      ...about,
      detail: { ...about.detail, state: request.state, ...via },
    };
    let sent: Record<string, unknown> | undefined;
    return tracked(
      this.options.activity ?? noActivity,
      entry,
      async () => {
        const done = await this.send(id, request, await as.reach?.(), as.admin);
        sent = done.sent;
        return done.answer;
      },
      () => ({ detail: { ...about.detail, state: sent ?? request.state, ...via } }),
    );
  }

  /**
   * Sends a command without recording it: the answer, and what was sent as the adapter tells it
   * (the bulk call of bulk-commands.ts records each command itself, once its outcome is known).
   */
  async send(id: string, request: DeviceCommandRequest, reach?: Reach, admin = false) {
    const device = reach ? this.reachable(id, reach) : this.get(id);
    if (!admin && installsUpdate(device.capabilities, request))
      throw new HttpError(403, DevicehubMessages.adminsInstall);
    const sent = await this.adapterOf(device).command(device, request);
    return { answer: { device_id: device.id, status: 'sent' as const }, sent };
  }

  /** Renames a device; `as`: the caller's reach and whether their role may rename (docs/access.md). */
  async rename(id: string, name: string, as?: { reach: Reach; manager: boolean }): Promise<Device> {
    const device = as ? this.reachable(id, as.reach) : this.get(id);
    if (as && !as.manager) throw new HttpError(403, ACCESS_MESSAGES.managersOnly);
    const trimmed = name.trim();
    if (trimmed === '') throw new HttpError(400, DevicehubMessages.emptyName);
    if (trimmed === device.name) return device;
    const renamed = await this.adapterOf(device).rename(device, trimmed);
    const now = nowIso();
    const { suggested_room } = await this.options.repository.rename(device.id, renamed, now);
    device.name = renamed;
    device.updated_at = now;
    device.suggested_room = this.placed.has(device.id) ? null : suggested_room;
    this.publishUpsert(device);
    return device;
  }

  /** What an activity entry about this device carries: its id, room and name (if listed). */
  about(id: string): Pick<ActivityRecord, 'device_id' | 'room_id' | 'detail'> {
    const device = this.devices.get(id);
    return {
      device_id: id,
      ...(device?.room_id ? { room_id: device.room_id } : {}),
      detail: device ? { name: device.name } : {},
    };
  }

  /**
   * A command a browser published on the edge broker. Each leaves one activity entry, as a REST
   * call does; a refused one (out of reach, view-only, invalid) is dropped and its reason goes to
   * the client's reply topic (docs/access.md#stream).
   */
  async handleEdgeCommand(command: EdgeCommand, caller: EdgeCaller) {
    const activity = this.options.activity ?? noActivity;
    const { principal, reach, origin } = caller;
    const actor = actorOf(principal);
    const payload = (command.payload ?? {}) as { device_id?: unknown; state?: unknown; name?: unknown };
    // An entry names only a device id it can store (docs/api.md#text).
    const deviceId =
      typeof payload.device_id === 'string' && !hasControlCharacter(payload.device_id)
        ? payload.device_id.slice(0, 200)
        : undefined;
    const about = deviceId ? this.about(deviceId) : {};
    const entry: Omit<ActivityRecord, 'result'> =
      command.kind === 'device.set'
        ? {
            actor,
            ...origin,
            kind: 'device.command',
            ...about,
            detail: { ...about.detail, state: payload.state, via: 'stream' },
          }
        : {
            actor,
            ...origin,
            kind: 'device.rename',
            ...about,
            detail: { ...about.detail, to: payload.name, via: 'stream' },
          };
    /** Whether the entry is recorded already (a command that got past its shape records itself). */
    let recorded = false;
    try {
      if (command.kind === 'device.set') {
        const { device_id, state } = deviceSetCommand.parse(command.payload);
        recorded = true;
        const admin = principal.kind === 'user' && principal.user.role === 'admin';
        await this.commandAs({ actor, origin, reach: () => reach, via: 'stream', admin }, device_id, {
          state,
        });
      } else {
        const { device_id, name } = deviceRenameCommand.parse(command.payload);
        const manager = principal.kind === 'user' && isManager(principal.user.role);
        await this.rename(device_id, name, { reach, manager });
        activity.record({ ...entry, result: 'ok' });
      }
    } catch (error) {
      const refused = error instanceof z.ZodError || resultOf(error) === 'refused';
      const reason =
        error instanceof z.ZodError
          ? (error.issues[0]?.message ?? 'invalid')
          : error instanceof HttpError
            ? error.message
            : 'Internal error';
      if (!recorded) {
        activity.record({
          ...entry,
          result: refused ? 'refused' : 'failed',
          detail: { ...entry.detail, reason },
        });
      }
      if (refused) caller.refuse({ kind: 'refused', device_id: deviceId ?? '', error: reason });
      // A device that refused the command itself or never answered it (Shelly's RPC): the REST
      // call's 502/504, told to the browser that sent it (docs/access.md#stream).
      else if (command.kind === 'device.set' && error instanceof HttpError)
        caller.refuse({ kind: 'failed', device_id: deviceId ?? '', error: reason });
      const message =
        error instanceof z.ZodError
          ? (error.issues[0]?.message ?? 'invalid')
          : error instanceof Error
            ? error.message
            : String(error);
      this.options.log.info(
        { kind: command.kind, user: actor.id, error: message },
        'device command from browser refused',
      );
    }
  }

  // ── adapter events ──────────────────────────────────────────────────────────────────────────

  private devicesListed(protocol: string, listed: DeviceDescription[], complete: boolean) {
    if (complete) this.latestList.set(protocol, listed);
    clearTimeout(this.listRetry.get(protocol));
    this.listRetry.delete(protocol);
    this.enqueue(async () => {
      try {
        await this.applyList(protocol, listed, complete);
        // Applied: nothing to try again (a list of thousands of devices weighs megabytes).
        if (this.latestList.get(protocol) === listed) this.latestList.delete(protocol);
      } catch (error) {
        // The database may be away for a moment: try the newest list again rather than stay
        // empty until the source happens to publish its list again.
        if (complete && this.latestList.get(protocol) === listed && !this.closed) {
          const retry = setTimeout(() => this.devicesListed(protocol, listed, true), LIST_RETRY_MS);
          retry.unref();
          this.listRetry.set(protocol, retry);
        }
        throw error;
      }
    });
  }

  /** Stops retrying; the queue settles with what it has. */
  stop() {
    this.closed = true;
    for (const retry of this.listRetry.values()) clearTimeout(retry);
  }

  /** A listed device of this source (a device another source lists is not its to report on). */
  private deviceOf(protocol: string, externalId: string): Device | undefined {
    const id = this.idByExternal.get(externalId);
    const device = id === undefined ? undefined : this.devices.get(id);
    return device?.protocol === protocol ? device : undefined;
  }

  private deviceRemoved(protocol: string, externalId: string) {
    this.enqueue(async () => {
      const device = this.deviceOf(protocol, externalId);
      if (!device) return;
      await this.options.repository.applyChanges({ upsert: [], remove: [device.id] }, nowIso());
      this.forget(device);
      this.tell((listener) => listener.deviceLeft?.(device));
      this.options.log.info({ id: device.id, external_id: externalId, protocol }, 'device removed');
    });
  }

  private stateReported(
    protocol: string,
    externalId: string,
    state: DeviceState,
    lastSeen: string | null,
    retained: boolean,
  ) {
    const id = this.idByExternal.get(externalId);
    const device = id ? this.devices.get(id) : undefined;
    if (!device) {
      // Merged: a source may report a device one part at a time (Home Assistant, per entity).
      const before = this.earlyState.get(externalId);
      const merged = before?.protocol === protocol ? { ...before.state, ...state } : state;
      this.earlyState.set(externalId, {
        protocol,
        state: merged,
        lastSeen: lastSeen ?? before?.lastSeen ?? null,
        retained,
      });
      return;
    }
    if (device.protocol !== protocol) return;
    // In place: the device keeps one state object (a fresh one per report became old-generation
    // garbage, docs/devicehub.md#performance).
    const trimmed = mergeInto(device.state, state);
    if (trimmed.length > 0) {
      this.once.warn(
        `state-size:${device.id}`,
        { id: device.id, keys: trimmed.slice(0, NAMED_IN_WARNING) },
        `device state over ${MAX_VALUE_BYTES} bytes per value or ${MAX_STATE_BYTES} in all; cut or dropped`,
      );
    }
    this.stateArrived.set(device.id, Date.now());
    if (lastSeen) device.last_seen = lastSeen;
    this.publishState(device);
    this.tell((listener) => listener.stateReported?.(device, state, retained));
    // Without availability reports (disabled in Zigbee2MQTT), a fresh message means it is there.
    if (!retained && !device.online && !this.availabilityKnown.has(device.id)) {
      device.online = true;
      this.publishUpsert(device);
    }
    this.markForWriter(device);
  }

  private availabilityChanged(protocol: string, externalId: string, online: boolean) {
    const id = this.idByExternal.get(externalId);
    const device = id ? this.devices.get(id) : undefined;
    if (!device) {
      this.earlyAvailability.set(externalId, { protocol, online });
      return;
    }
    if (device.protocol !== protocol) return;
    const first = !this.availabilityKnown.has(device.id);
    this.availabilityKnown.add(device.id);
    if (device.online === online) return;
    device.online = online;
    this.markForWriter(device);
    this.publishUpsert(device);
    this.tell((listener) => listener.onlineChanged?.(device, online, first));
  }

  /**
   * This instance has become the state writer: its whole view goes to the registry (what the
   * previous writer had not flushed when it stopped is not lost).
   */
  markAllForWriter() {
    for (const device of this.devices.values()) this.markForWriter(device);
  }

  /**
   * An instance that does not write device state follows the registry's online flags and last
   * seen where the registry knows more: a last seen at least as new as its own, and online flags
   * of devices whose availability this instance has not heard on the bus.
   */
  adoptPresence(rows: readonly Presence[]) {
    for (const row of rows) {
      const device = this.devices.get(row.id);
      if (!device) continue;
      const newer =
        row.last_seen !== null && (device.last_seen === null || row.last_seen >= device.last_seen);
      if (!newer && row.last_seen !== device.last_seen) continue;
      device.last_seen = row.last_seen;
      if (device.online !== row.online && !this.availabilityKnown.has(device.id)) {
        device.online = row.online;
        this.publishUpsert(device);
      }
    }
  }

  // ── internals ───────────────────────────────────────────────────────────────────────────────

  private tell(call: (listener: DeviceListener) => void) {
    for (const listener of this.listeners) {
      try {
        call(listener);
      } catch (error) {
        this.once.warn('listener', { err: error }, 'a device update listener failed');
      }
    }
  }

  private enqueue(task: () => Promise<void>) {
    this.queue = this.queue.then(task).then(
      () => {
        this.registryFailing = false;
      },
      (error) => {
        // A list is retried every 2 s while the database is away: one line per outage.
        if (!this.registryFailing) this.options.log.error({ err: error }, 'device registry update failed');
        this.registryFailing = true;
      },
    );
  }

  /**
   * Marks the device for the state writer through its one entry, updated in place: a report
   * allocates nothing that waits for the next flush, and the writer serialises the state it
   * finds then (the newest).
   */
  private markForWriter(device: Device) {
    let entry = this.writerEntries.get(device.id);
    if (entry === undefined) {
      entry = { id: device.id, state: device.state, lastSeen: device.last_seen, online: device.online };
      this.writerEntries.set(device.id, entry);
    } else {
      entry.state = device.state;
      entry.lastSeen = device.last_seen;
      entry.online = device.online;
    }
    this.options.writer.mark(entry);
  }

  private track(device: Device) {
    if (this.placed.has(device.id) || device.room_id !== null) device.suggested_room = null;
    this.devices.set(device.id, device);
    this.idByExternal.set(device.external_id, device.id);
    this.changed(true);
  }

  private changed(order = false) {
    this.version++;
    if (order) this.ordered = undefined;
  }

  /**
   * Brings the registry in line with a source's list, in one transaction, within two bounds: a
   * complete list never removes more than half of that source's known devices (those never heard
   * from first, then the least recently heard), and no list makes the hub list more than
   * maxDevices in all (devices already listed are never pushed out by another source's new ones).
   * What a bound holds back is named in one warning; the rest of the list applies. A list that is
   * not `complete` only adds and updates. A device another source lists is left to it (warned).
   */
  private async applyList(protocol: string, all: DeviceDescription[], complete: boolean) {
    const maxDevices = this.options.maxDevices ?? DEFAULT_MAX_DEVICES;
    const listed = all.filter((d) => {
      const other = this.idByExternal.get(d.external_id);
      const owner = other === undefined ? undefined : this.devices.get(other)?.protocol;
      if (owner === undefined || owner === protocol) return true;
      this.once.warn(
        `claimed:${protocol}:${d.external_id}`,
        { protocol, external_id: d.external_id, listedBy: owner },
        'device already listed by another source; skipped',
      );
      return false;
    });
    const present = new Set(listed.map((d) => d.external_id));
    const known = this.list().filter((device) => device.protocol === protocol);
    // Never heard (last_seen null) sorts first: the least recently heard of all.
    const leaving = complete
      ? known
          .filter((device) => !present.has(device.external_id))
          .sort((a, b) => (a.last_seen ?? '').localeCompare(b.last_seen ?? ''))
      : [];
    const bound =
      leaving.length > known.length / 2 ? Math.max(1, Math.floor(known.length / 2)) : leaving.length;
    const removing = leaving.slice(0, bound);
    const kept = leaving.slice(bound);

    const json = onceEach();
    const changed = listed.filter((d) => {
      const id = this.idByExternal.get(d.external_id);
      const device = id ? this.devices.get(id) : undefined;
      return !device || metadataDiffers(device, d, json);
    });
    const room = Math.max(0, maxDevices - (this.devices.size - removing.length));
    const arriving = changed.filter((d) => !this.idByExternal.has(d.external_id));
    const refused = new Set(arriving.slice(room).map((d) => d.external_id));
    const upsert = refused.size > 0 ? changed.filter((d) => !refused.has(d.external_id)) : changed;

    const now = nowIso();
    const saved = await this.options.repository.applyChanges(
      { upsert, remove: removing.map((device) => device.id) },
      now,
    );
    for (const device of removing) {
      this.forget(device);
      this.tell((listener) => listener.deviceLeft?.(device));
    }
    for (const externalId of refused) this.earlyState.delete(externalId);
    const counts = { added: 0, restored: 0, updated: 0 };
    const descriptions = new Map(upsert.map((d) => [d.external_id, d]));
    for (const row of saved) {
      const before = this.devices.get(row.id);
      const description = descriptions.get(row.external_id)!;
      if (before) counts.updated++;
      else if (row.created_at === now) counts.added++;
      else counts.restored++;
      const joined = !before;
      // Keep what lives only in memory (online, the newest state) across a metadata update, and
      // the adapter's shared capability objects rather than fresh copies parsed from the row.
      const device: Device = {
        ...row,
        state: mergeBounded({}, row.state).state,
        capabilities: description.capabilities,
        inputs: description.inputs,
        // The room too: the rooms domain may have moved it while this list was being stored.
        ...(before
          ? {
              online: before.online,
              state: before.state,
              last_seen: before.last_seen,
              room_id: before.room_id,
            }
          : {}),
      };
      // A device a list took away comes back as it was when it left (the bus will not repeat its
      // retained availability), and is asked for a fresh state.
      const returning = joined ? this.departed.get(device.external_id) : undefined;
      if (returning) {
        this.departed.delete(device.external_id);
        device.online = returning.online;
        if (returning.availabilityKnown) this.availabilityKnown.add(device.id);
      }
      this.track(device);
      const early = this.earlyState.get(device.external_id);
      const availability = this.earlyAvailability.get(device.external_id);
      this.earlyState.delete(device.external_id);
      this.earlyAvailability.delete(device.external_id);
      this.publishUpsert(device);
      if (joined) this.tell((listener) => listener.deviceJoined?.(device));
      if (availability?.protocol === protocol)
        this.availabilityChanged(protocol, device.external_id, availability.online);
      if (early?.protocol === protocol)
        this.stateReported(protocol, device.external_id, early.state, early.lastSeen, early.retained);
      if (returning) this.requestState(device);
    }
    const removed = removing.length;
    if (saved.length > 0 || removed > 0) {
      this.options.log.info(
        { protocol, listed: listed.length, ...counts, removed, devices: this.devices.size },
        'device list applied',
      );
    }
    if (kept.length > 0 || refused.size > 0) {
      this.options.log.warn(
        {
          protocol,
          ...(kept.length > 0
            ? { notRemoved: kept.length, keptDevices: kept.slice(0, NAMED_IN_WARNING).map((d) => d.name) }
            : {}),
          ...(refused.size > 0
            ? { notAdded: refused.size, skippedDevices: [...refused].slice(0, NAMED_IN_WARNING), maxDevices }
            : {}),
        },
        'device list only partly applied: it would remove most devices at once or list more than DEVICEHUB_MAX_DEVICES',
      );
    }
  }

  /** Asks the device's ecosystem for a fresh state report (nothing to ask for, or a failure: logged). */
  requestState(device: Device) {
    const adapter = this.adapters.get(device.protocol);
    adapter?.requestState(device).catch((error: unknown) => {
      this.options.log.debug({ err: error, id: device.id }, 'state request failed');
    });
  }

  /** Takes a removed device out of memory and tells browsers (the registry keeps its row). */
  private forget(device: Device) {
    const { id } = device;
    this.departed.delete(device.external_id);
    this.departed.set(device.external_id, {
      online: device.online,
      availabilityKnown: this.availabilityKnown.has(id),
    });
    if (this.departed.size > MAX_DEPARTED) this.departed.delete(this.departed.keys().next().value!);
    this.options.writer.forget(id);
    this.writerEntries.delete(id);
    this.devices.delete(id);
    this.idByExternal.delete(device.external_id);
    this.availabilityKnown.delete(id);
    this.stateArrived.delete(id);
    this.changed(true);
    const event: DeviceRemovedEvent = { id, external_id: device.external_id };
    this.publish(devicehubTopics.removed, JSON.stringify(event), false, { type: 'removed', deviceId: id });
    // An empty retained message clears the device's retained state for late subscribers.
    this.publish(devicehubTopics.device(id), '', true, { type: 'state', deviceId: id });
    this.stateRoutes.delete(id);
  }

  private publishUpsert(device: Device) {
    // A rename, a room or metadata: the order may change too.
    this.changed(true);
    // With the fast path's level; the edge re-encodes it for a connection that may only view it.
    // Encoded only if a browser gets it (2000 upserts with nobody watching cost no JSON).
    this.publish(devicehubTopics.upsert, () => JSON.stringify({ ...device, access: 'control' }), false, {
      type: 'upsert',
      device,
    });
  }

  /** Publishes the device's state (retained). */
  private publishState(device: Device) {
    this.changed();
    let route = this.stateRoutes.get(device.id);
    if (route === undefined) {
      route = { topic: devicehubTopics.device(device.id), about: { type: 'state', deviceId: device.id } };
      this.stateRoutes.set(device.id, route);
    }
    this.publish(route.topic, JSON.stringify(device.state), true, route.about);
  }

  private publish(topic: string, payload: string | (() => string), retain: boolean, about?: EdgeAbout) {
    let sent: Promise<void>;
    try {
      sent = this.options.edge.publish(topic, payload, about ? { retain, about } : { retain });
    } catch (error) {
      sent = Promise.reject(error);
    }
    sent.catch((error) => {
      this.once.warn(`edge:${topic}`, { err: error, topic }, 'publishing to browsers failed');
    });
  }
}
