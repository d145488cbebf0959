import type { Device, DeviceCommandRequest } from '@hearth/contracts';
import type { Logger } from 'pino';
import type { Bus } from '../../../bus/bus.js';
import { HttpError } from '../../../http/errors.js';
import { isObject, type JsonObject } from '../../../shared/json.js';
import { DevicehubMessages } from '../../devicehub.errors.js';
import { LogOnce } from '../../log-once.js';
import type { AdapterEvents, DeviceAdapter } from '../adapter.js';
import { parseBridgeDevices, usableFriendlyName } from './bridge-devices.js';
import { buildSetCommand } from './commands.js';
import { PendingMessages } from './pending-messages.js';
import type { RenameRequest } from './z2m.types.js';

/** A name Hearth gives a device (its error text says so); Zigbee2MQTT's own may be up to 256. */
const MAX_RENAME_LENGTH = 128;

export interface Zigbee2mqttAdapterOptions {
  bus: Bus;
  /** Zigbee2MQTT's base topic (ZIGBEE2MQTT_BASE_TOPIC). */
  baseTopic: string;
  log: Logger;
  renameTimeoutMs?: number;
}

/** State and availability messages larger than this are skipped (a real one is well under 4 KB). */
export const MAX_STATE_PAYLOAD = 256 * 1024;
/** The retained device list grows with the network (a few KB per device). */
export const MAX_DEVICE_LIST_PAYLOAD = 64 * 1024 * 1024;

type Raw = JsonObject;

export type BridgeState = 'online' | 'offline' | null;

interface PendingRename {
  from: string;
  to: string;
  resolve(name: string): void;
  reject(error: Error): void;
}

/** ISO time from a state's `last_seen` (ISO_8601, ISO_8601_local or epoch milliseconds). */
function lastSeenOf(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const time = new Date(value).getTime();
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}

/**
 * Zigbee2MQTT's public MQTT API on the bus: the retained `bridge/devices` list, `<name>` state,
 * `<name>/availability`, `bridge/event`, `<name>/set` and `bridge/request/device/rename`.
 */
export class Zigbee2mqttAdapter implements DeviceAdapter {
  readonly protocol = 'zigbee';
  private readonly byName = new Map<string, string>();
  private readonly byIeee = new Map<string, string>();
  private readonly stateKeys = new Map<string, ReadonlySet<string>>();
  private readonly pendingRenames = new Map<string, PendingRename>();
  /** Availability and state for names the list has not named (yet). */
  private readonly pending = new PendingMessages();
  private readonly once: LogOnce;
  private readonly log: Logger;
  private events: AdapterEvents | undefined;
  private unsubscribe: (() => void) | undefined;
  /** Zigbee2MQTT's retained `bridge/state`; null until it has said (or after it was cleared). */
  private bridge: BridgeState = null;
  private readonly bridgeListeners = new Set<(state: BridgeState) => void>();

  constructor(private readonly options: Zigbee2mqttAdapterOptions) {
    this.log = options.log.child({ adapter: 'zigbee2mqtt' });
    this.once = new LogOnce(this.log);
  }

  async start(events: AdapterEvents) {
    this.events = events;
    this.unsubscribe = await this.options.bus.subscribe(
      `${this.options.baseTopic}/#`,
      (topic, payload, retained) => this.onMessage(topic, payload, retained),
    );
    this.log.info({ baseTopic: this.options.baseTopic }, 'zigbee2mqtt adapter listening');
  }

  async stop() {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    for (const pending of this.pendingRenames.values()) pending.reject(new Error('adapter stopped'));
    this.pendingRenames.clear();
  }

  ready() {
    return this.unsubscribe !== undefined;
  }

  /** Whether Zigbee2MQTT says it is running (`bridge/state`); null when it has not said. */
  bridgeState(): BridgeState {
    return this.bridge;
  }

  onBridgeState(listener: (state: BridgeState) => void): () => void {
    this.bridgeListeners.add(listener);
    return () => this.bridgeListeners.delete(listener);
  }

  /** Handles one bus message; never throws (bad input is logged once per topic and skipped). */
  onMessage(topic: string, payload: Buffer, retained: boolean) {
    try {
      this.dispatch(topic.slice(this.options.baseTopic.length + 1), payload, retained);
    } catch (error) {
      this.once.warn(`failed:${topic}`, { topic, err: error }, 'zigbee2mqtt message skipped');
    }
  }

  private dispatch(rest: string, payload: Buffer, retained: boolean) {
    if (rest.startsWith('bridge/')) return this.onBridge(rest, payload);
    if (rest.endsWith('/availability')) {
      const name = rest.slice(0, -'/availability'.length);
      const ieee = this.byName.get(name);
      if (ieee) this.onAvailability(rest, ieee, payload);
      else this.keepPending(name, 'availability', payload, retained);
      return;
    }
    const ieee = this.byName.get(rest);
    if (ieee) this.onState(rest, ieee, payload, retained);
    // /set and /get are commands, not reports. Other unknown names are groups, or devices the
    // list has not named yet: a broker replays retained topics in any order.
    else if (!rest.endsWith('/set') && !rest.endsWith('/get'))
      this.keepPending(rest, 'state', payload, retained);
  }

  private keepPending(name: string, kind: 'availability' | 'state', payload: Buffer, retained: boolean) {
    if (payload.length === 0) return this.pending.forget(name, kind);
    if (payload.length > MAX_STATE_PAYLOAD) return;
    if (kind === 'availability') this.pending.keepAvailability(name, payload);
    else this.pending.keepState(name, { payload, retained, receivedAt: new Date().toISOString() });
  }

  /** The name is the device's now: maps it, then reports what arrived for it before. */
  private learn(name: string, ieee: string) {
    this.byName.set(name, ieee);
    this.byIeee.set(ieee, name);
    const pending = this.pending.take(name);
    if (pending?.availability) this.onAvailability(`${name}/availability`, ieee, pending.availability);
    if (pending?.state) {
      const { payload, retained, receivedAt } = pending.state;
      this.onState(name, ieee, payload, retained, receivedAt);
    }
  }

  private parseJson(topic: string, payload: Buffer, limit: number): unknown {
    if (payload.length > limit) {
      this.once.warn(
        `large:${topic}`,
        { topic, bytes: payload.length },
        'zigbee2mqtt payload too large; skipped',
      );
      return undefined;
    }
    try {
      return JSON.parse(payload.toString('utf8'));
    } catch {
      this.once.warn(`json:${topic}`, { topic }, 'zigbee2mqtt payload is not JSON; skipped');
      return undefined;
    }
  }

  private onBridge(rest: string, payload: Buffer) {
    if (rest === 'bridge/state') return this.onBridgeStateMessage(rest, payload);
    if (payload.length === 0) return;
    if (rest === 'bridge/devices') {
      const list = this.parseJson(rest, payload, MAX_DEVICE_LIST_PAYLOAD);
      if (list === undefined) return;
      if (!Array.isArray(list)) {
        this.once.warn('devices:not-array', { topic: rest }, 'bridge/devices is not a JSON array; skipped');
        return;
      }
      const { devices, problems, rejected } = parseBridgeDevices(list);
      // One line per list, however many entries are bad (a garbage list has thousands).
      const summary = { entries: list.length, problems: problems.length, first: problems.slice(0, 10) };
      if (devices.length === 0 && rejected > 0) {
        this.once.warn(
          `devices:unusable:${list.length}:${problems[0]}`,
          summary,
          'bridge/devices has no usable entry; ignored, the registry is unchanged',
        );
        return;
      }
      if (problems.length > 0)
        this.once.warn(
          `devices:${problems.length}:${problems[0]}`,
          summary,
          'bridge/devices entries skipped',
        );
      this.byName.clear();
      this.byIeee.clear();
      this.stateKeys.clear();
      for (const device of devices) this.stateKeys.set(device.external_id, device.stateKeys);
      this.events?.devicesListed(devices);
      for (const device of devices) this.learn(device.friendly_name, device.external_id);
      return;
    }
    if (rest === 'bridge/event') {
      const event = this.parseJson(rest, payload, MAX_STATE_PAYLOAD);
      if (!isObject(event) || !isObject(event.data)) return;
      const ieee = event.data.ieee_address;
      if (event.type === 'device_leave' && typeof ieee === 'string') {
        const name = this.byIeee.get(ieee);
        if (name !== undefined) this.byName.delete(name);
        this.byIeee.delete(ieee);
        this.events?.deviceRemoved(ieee);
      }
      // device_joined and device_interview are followed by a new bridge/devices list.
      return;
    }
    if (rest === 'bridge/response/device/rename') {
      const response = this.parseJson(rest, payload, MAX_STATE_PAYLOAD);
      if (isObject(response)) this.onRenameResponse(response);
    }
  }

  /** `online`/`offline`, plain (before Zigbee2MQTT 1.29) or `{"state":"online"}`; empty: unknown. */
  private onBridgeStateMessage(topic: string, payload: Buffer) {
    let state: BridgeState = null;
    if (payload.length > 0) {
      const value = this.availabilityValue(topic, payload);
      if (value !== 'online' && value !== 'offline') {
        this.once.warn(
          `bridge-state:${topic}`,
          { topic },
          'zigbee2mqtt bridge/state not understood; skipped',
        );
        return;
      }
      state = value;
    }
    if (state === this.bridge) return;
    this.bridge = state;
    this.log.info({ bridge: state ?? 'unknown' }, 'zigbee2mqtt bridge state');
    for (const listener of this.bridgeListeners) listener(state);
  }

  /** An availability-style payload: plain text, or JSON with `state`. */
  private availabilityValue(topic: string, payload: Buffer): unknown {
    if (payload.length > MAX_STATE_PAYLOAD) return undefined;
    const raw = payload.toString('utf8').trim();
    if (!raw.startsWith('{')) return raw;
    const parsed = this.parseJson(topic, payload, MAX_STATE_PAYLOAD);
    return isObject(parsed) ? parsed.state : undefined;
  }

  private onAvailability(topic: string, ieee: string, payload: Buffer) {
    // Empty clears the retained topic (Zigbee2MQTT does so for the old name after a rename).
    if (payload.length === 0 || payload.length > MAX_STATE_PAYLOAD) return;
    const value = this.availabilityValue(topic, payload);
    if (value === 'online' || value === 'offline') this.events?.availabilityChanged(ieee, value === 'online');
    else
      this.once.warn(`availability:${topic}`, { topic }, 'zigbee2mqtt availability not understood; skipped');
  }

  private onState(topic: string, ieee: string, payload: Buffer, retained: boolean, receivedAt?: string) {
    if (payload.length === 0) return;
    const state = this.parseJson(topic, payload, MAX_STATE_PAYLOAD);
    if (state === undefined) return;
    if (!isObject(state)) {
      this.once.warn(`object:${topic}`, { topic }, 'zigbee2mqtt state is not a JSON object; skipped');
      return;
    }
    const lastSeen =
      lastSeenOf(state.last_seen) ?? (retained ? null : (receivedAt ?? new Date().toISOString()));
    this.events?.stateReported(ieee, this.knownKeys(topic, ieee, state), lastSeen, retained);
  }

  /** The state without keys its exposes do not name (logged once per device). */
  private knownKeys(topic: string, ieee: string, state: Raw): Raw {
    const keys = this.stateKeys.get(ieee);
    if (!keys) return state;
    // Nearly every message has only known keys: checked without building arrays.
    let allKnown = true;
    for (const key in state) {
      if (!keys.has(key)) {
        allKnown = false;
        break;
      }
    }
    if (allKnown) return state;
    const unknown = Object.keys(state).filter((key) => !keys.has(key));
    this.once.warn(
      `keys:${topic}`,
      { topic, keys: unknown.slice(0, 10) },
      'zigbee2mqtt state keys not in the exposes; dropped',
    );
    const known: Raw = {};
    for (const key in state) if (keys.has(key)) known[key] = state[key];
    return known;
  }

  private friendlyName(device: Device) {
    return this.byIeee.get(device.external_id) ?? device.name;
  }

  async command(device: Device, request: DeviceCommandRequest) {
    const { payload, sent } = buildSetCommand(device.capabilities, request);
    if (!this.options.bus.connected) throw new HttpError(503, DevicehubMessages.busDown);
    // Nobody would act on it: say so rather than answer "sent".
    if (this.bridge === 'offline') throw new HttpError(503, DevicehubMessages.bridgeOffline);
    await this.options.bus.publish(
      `${this.options.baseTopic}/${this.friendlyName(device)}/set`,
      JSON.stringify(payload),
    );
    return sent;
  }

  /** `<friendly_name>/get` with every gettable property (`{"state": "", "brightness": ""}`). */
  async requestState(device: Device): Promise<boolean> {
    const properties = new Set(device.capabilities.filter((c) => c.access.gettable).map((c) => c.property));
    if (properties.size === 0) return false;
    const payload = Object.fromEntries([...properties].map((property) => [property, '']));
    await this.options.bus.publish(
      `${this.options.baseTopic}/${this.friendlyName(device)}/get`,
      JSON.stringify(payload),
    );
    return true;
  }

  async rename(device: Device, name: string): Promise<string> {
    if (name.length > MAX_RENAME_LENGTH || !usableFriendlyName(name)) {
      throw new HttpError(400, DevicehubMessages.invalidName);
    }
    if (!this.options.bus.connected) throw new HttpError(503, DevicehubMessages.busDown);
    if (this.bridge === 'offline') throw new HttpError(503, DevicehubMessages.bridgeOffline);
    const from = this.friendlyName(device);
    const transaction = crypto.randomUUID();
    const request: RenameRequest = { from, to: name, homeassistant_rename: false, transaction };
    const answered = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pendingRenames.delete(transaction);
        reject(new HttpError(504, DevicehubMessages.renameTimeout));
      }, this.options.renameTimeoutMs ?? 5000);
      this.pendingRenames.set(transaction, {
        from,
        to: name,
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
    });
    await this.options.bus.publish(
      `${this.options.baseTopic}/bridge/request/device/rename`,
      JSON.stringify(request),
    );
    const renamed = await answered;
    if (this.byName.get(from) === device.external_id) this.byName.delete(from);
    // Retained messages under the new name may have arrived before the answer (and the list).
    if (this.byName.get(renamed) !== device.external_id) this.learn(renamed, device.external_id);
    return renamed;
  }

  private onRenameResponse(response: Raw) {
    const data = isObject(response.data) ? response.data : {};
    let key = typeof response.transaction === 'string' ? response.transaction : undefined;
    // Older Zigbee2MQTT versions answer without the transaction: match on from/to.
    key ??= [...this.pendingRenames].find(([, p]) => p.from === data.from && p.to === data.to)?.[0];
    const pending = key === undefined ? undefined : this.pendingRenames.get(key);
    if (!pending || key === undefined) return;
    this.pendingRenames.delete(key);
    if (response.status === 'ok') pending.resolve(typeof data.to === 'string' ? data.to : pending.to);
    else {
      const message =
        typeof response.error === 'string' && response.error
          ? response.error
          : DevicehubMessages.renameFailed;
      pending.reject(new HttpError(400, message.slice(0, 300)));
    }
  }
}
