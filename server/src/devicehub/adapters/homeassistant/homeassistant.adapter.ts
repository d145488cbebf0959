import { createHash } from 'node:crypto';
import type { Capability, Device, DeviceCommandRequest } from '@hearth/contracts';
import type { Logger } from 'pino';
import type { Bus } from '../../../bus/bus.js';
import { compileTopicFilter } from '../../../bus/bus.js';
import { HttpError } from '../../../http/errors.js';
import { isObject, type JsonObject } from '../../../shared/json.js';
import { DevicehubMessages } from '../../devicehub.errors.js';
import { LogOnce } from '../../log-once.js';
import type { AdapterEvents, DeviceAdapter, DeviceDescription } from '../adapter.js';
import { deviceTypeOf, humanize, toInput } from '../zigbee2mqtt/exposes.js';
import { type Availability, availabilityMessage, availabilityOf, combined } from './availability.js';
import { type DeviceInfo, type EntityConfig, parseConfig } from './discovery.js';
import {
  buildCommand,
  capabilityOf,
  decode,
  decodeAttributes,
  type Publication,
  powerOf,
  stateTopics,
  triggerName,
} from './entities.js';
import { Payload } from './payload.js';
import { TemplateEngine } from './templates.js';

export const PROTOCOL = 'homeassistant';
/** State and availability payloads larger than this are skipped. */
export const MAX_STATE_PAYLOAD = 256 * 1024;
/** Most entities the adapter keeps (each device is also bounded by DEVICEHUB_MAX_DEVICES in the hub). */
export const MAX_ENTITIES = 20_000;
/** Most config topics waiting to be read, and how many are read per second. */
const MAX_QUEUED_CONFIGS = 20_000;
const CONFIGS_PER_SECOND = 1000;
/** Attributes (json_attributes_topic) reach the capability's metadata at most this often per entity. */
const ATTRIBUTES_EVERY_MS = 30_000;
const MAX_ATTRIBUTES_BYTES = 4096;
/** Messages under the discovery prefix kept for entities whose config has not arrived yet. */
const MAX_PENDING = 2000;
/** Rejected configs remembered for admins (newest first). */
const MAX_REJECTED = 100;

export interface HomeAssistantAdapterOptions {
  bus: Bus;
  /** HA_DISCOVERY_PREFIX (may contain `/`). */
  prefix: string;
  log: Logger;
  /** The Zigbee2MQTT adapter's base topic: discovery about its devices is left to it. */
  zigbee2mqttBaseTopic?: string;
  /** The registry's names of this source's devices (Hearth's name wins once a device is listed). */
  storedNames?: () => Promise<Record<string, string>>;
  /** How long after the birth message the first complete list waits (and for a quiet second). */
  settleMs?: number;
  /** How long changes gather before they are listed. */
  listDelayMs?: number;
  maxEntities?: number;
  /** Configs read per second (CONFIGS_PER_SECOND). */
  configsPerSecond?: number;
  templates?: TemplateEngine;
}

/** A config Hearth refused: for admins (the Sources page), newest first. */
/** How long a fresh message held for its config still counts as fresh when the config comes (configs are read 1000 a second). */
const FRESH_PENDING_MS = 30_000;

export interface RejectedConfig {
  topic: string;
  reason: string;
  at: string;
}

interface EntityState {
  config: EntityConfig;
  deviceKey: string;
  value: unknown;
  availability: Availability | undefined;
  heard: Map<string, boolean>;
  latest: boolean | undefined;
  /** The last template error, shown on the capability. */
  error: string | undefined;
  attributes: JsonObject | undefined;
  attributesAt: number;
  /** Its state topics by config key, its attributes topic and timers, read once from its config. */
  stateTopics: [key: string, topic: string][];
  attributesTopic: string | undefined;
  expireAfter: number | undefined;
  offDelay: number | undefined;
  /** Its property in its device (propertyOf), until the device's entities change. */
  property: string | undefined;
  /** Every topic it listens on. */
  topics: string[];
  /** `expire_after` and a binary sensor's `off_delay`. */
  timers: { expire?: NodeJS.Timeout; off?: NodeJS.Timeout };
}

interface DeviceState {
  externalId: string;
  entities: Set<string>;
  info: DeviceInfo | undefined;
  online: boolean | undefined;
}

/** A number of seconds above 0 from a config, else undefined. */
const positive = (value: unknown) => (typeof value === 'number' && value > 0 ? value : undefined);

/** What one message changed, by device: each entity's property and value, in the order they came. */
type Reports = Map<string, [property: string, value: unknown][]>;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

/** Could messages matching `filter` fall under `root/…`? (then the filter would overlap another source's subscription) */
export function mayOverlap(filter: string, root: string): boolean {
  const f = filter.split('/');
  const r = root.split('/');
  for (let i = 0; i < r.length; i++) {
    if (i >= f.length) return false;
    if (f[i] === '#') return true;
    if (f[i] !== '+' && f[i] !== r[i]) return false;
  }
  return true;
}

/**
 * Home Assistant MQTT discovery (docs/devicehub.md#home-assistant-discovery-mapping): retained configs under
 * the prefix become devices, each entity a capability; their topics are subscribed, their
 * messages decoded through their templates; commands published as Home Assistant would.
 */
export class HomeAssistantAdapter implements DeviceAdapter {
  readonly protocol = PROTOCOL;
  private readonly log: Logger;
  private readonly once: LogOnce;
  private readonly templates: TemplateEngine;
  private events: AdapterEvents | undefined;
  private unsubscribe: (() => void) | undefined;
  private unsubscribeStatus: (() => void) | undefined;
  private readonly entities = new Map<string, EntityState>();
  /** Discovery ids by the config topic that announced them. */
  private readonly byConfigTopic = new Map<string, string[]>();
  private readonly devices = new Map<string, DeviceState>();
  /** Device identifiers and connections → the device they belong to. */
  private readonly deviceIndex = new Map<string, string>();
  /** Entities listening on each topic (or wildcard filter). */
  private readonly listeners = new Map<string, Set<string>>();
  private readonly wildcards = new Map<string, (topic: string) => boolean>();
  private readonly subscriptions = new Map<string, Promise<() => void>>();
  /** Messages under the prefix before their config: the newest per topic, whether retained, and when it came. */
  private readonly pending = new Map<string, { payload: Buffer; retained: boolean; at: number }>();
  private pendingBytes = 0;
  private readonly queue = new Map<string, Buffer>();
  private pumping = false;
  private readonly dirty = new Set<string>();
  private flushTimer: NodeJS.Timeout | undefined;
  private flushDeadline = 0;
  private settled = false;
  private settleTimer: NodeJS.Timeout | undefined;
  private lastConfigAt = 0;
  private startedAt = 0;
  private readonly names = new Map<string, string>();
  /** Each accepted config's digest, by topic. */
  private readonly configDigests = new Map<string, string>();
  private readonly rejectedConfigs: RejectedConfig[] = [];
  private ignored = 0;

  constructor(private readonly options: HomeAssistantAdapterOptions) {
    this.log = options.log.child({ adapter: 'homeassistant' });
    this.once = new LogOnce(this.log);
    this.templates = options.templates ?? new TemplateEngine();
  }

  async start(events: AdapterEvents) {
    this.events = events;
    try {
      for (const [externalId, name] of Object.entries((await this.options.storedNames?.()) ?? {}))
        this.names.set(externalId, name);
    } catch (error) {
      this.log.warn({ err: error }, 'reading the registry names of Home Assistant devices failed');
    }
    const { prefix } = this.options;
    this.unsubscribe = await this.options.bus.subscribe(`${prefix}/#`, (topic, payload, retained) =>
      this.onDiscoveryMessage(topic, payload, retained),
    );
    this.startedAt = Date.now();
    await this.announce();
    // After an outage: Home Assistant's producers send their configs again when they hear the birth message.
    this.unsubscribeStatus = this.options.bus.onStatus((status) => {
      if (status.bus === 'online') void this.announce();
    });
    this.settleTimer = setInterval(() => this.maybeSettle(), 250);
    this.settleTimer.unref();
    this.log.info({ prefix }, 'home assistant discovery listening');
  }

  async stop() {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.unsubscribeStatus?.();
    clearInterval(this.settleTimer);
    clearTimeout(this.flushTimer);
    for (const filter of [...this.subscriptions.keys()]) this.unsubscribeTopic(filter);
    for (const state of this.entities.values()) this.clearTimers(state);
  }

  ready() {
    return this.unsubscribe !== undefined;
  }

  /** Configs refused lately, newest first (for admins). */
  rejected(): RejectedConfig[] {
    return [...this.rejectedConfigs];
  }

  /**
   * Clears a retained config nobody removes any more (a "ghost" entity): an empty retained message
   * on its topic, which removes its entities here and in any Home Assistant on the broker. Resolves
   * false for a topic that is not a discovery config topic under the prefix.
   */
  async forget(configTopic: string): Promise<boolean> {
    if (
      !configTopic.startsWith(`${this.options.prefix}/`) ||
      !configTopic.endsWith('/config') ||
      /[#+]/.test(configTopic)
    )
      return false;
    await this.options.bus.publish(configTopic, '', { qos: 1, retain: true });
    return true;
  }

  /** How many entities this adapter serves, and how many configs it left to Zigbee2MQTT. */
  counts() {
    return { entities: this.entities.size, devices: this.devices.size, ignored: this.ignored };
  }

  /** Home Assistant's birth message: producers that do not retain their configs send them now. */
  private async announce() {
    try {
      await this.options.bus.publish(`${this.options.prefix}/status`, 'online', { qos: 0, retain: false });
    } catch (error) {
      this.log.debug({ err: error }, 'publishing the birth message failed');
    }
  }

  /** The first complete list, once the broker's retained configs and the birth message's answers are in. */
  private maybeSettle() {
    if (this.settled) return;
    const now = Date.now();
    const settleMs = this.options.settleMs ?? 5000;
    const quiet = now - this.lastConfigAt > Math.min(1000, settleMs) && this.queue.size === 0;
    if ((now - this.startedAt >= settleMs && quiet) || now - this.startedAt >= settleMs * 6) {
      this.settled = true;
      clearInterval(this.settleTimer);
      this.flush(true);
    }
  }

  // ── messages ────────────────────────────────────────────────────────────────────────────────

  /** Handles one message under the prefix; never throws. */
  onDiscoveryMessage(topic: string, payload: Buffer, retained: boolean) {
    try {
      if (topic.endsWith('/config')) return this.enqueueConfig(topic, payload);
      if (topic === `${this.options.prefix}/status`) return;
      // A state topic under the prefix (the docs' examples put them there): no separate subscription.
      if (payload.length <= MAX_STATE_PAYLOAD) this.keepPending(topic, payload, retained);
      this.onStateMessage(topic, payload, retained);
    } catch (error) {
      this.once.warn(`failed:${topic}`, { topic, err: error }, 'home assistant message skipped');
    }
  }

  private keepPending(topic: string, payload: Buffer, retained: boolean) {
    const before = this.pending.get(topic);
    if (before) this.pendingBytes -= before.payload.length;
    this.pending.delete(topic);
    if (payload.length === 0) return;
    this.pending.set(topic, { payload, retained, at: Date.now() });
    this.pendingBytes += payload.length;
    while (this.pending.size > MAX_PENDING || this.pendingBytes > 4 * 1024 * 1024) {
      const [oldest, kept] = this.pending.entries().next().value as [string, { payload: Buffer }];
      this.pending.delete(oldest);
      this.pendingBytes -= kept.payload.length;
    }
  }

  private enqueueConfig(topic: string, payload: Buffer) {
    this.lastConfigAt = Date.now();
    if (!this.queue.has(topic) && this.queue.size >= MAX_QUEUED_CONFIGS) {
      this.once.warn(
        'queue-full',
        { topic, queued: this.queue.size },
        'too many home assistant configs at once; some skipped until they are sent again',
      );
      return;
    }
    // The newest config of a topic is the one that counts.
    this.queue.delete(topic);
    this.queue.set(topic, payload);
    if (!this.pumping) {
      this.pumping = true;
      setImmediate(() => this.pump());
    }
  }

  /** Reads queued configs in slices of the event loop, at most CONFIGS_PER_SECOND. */
  private pump() {
    const sliceEnd = performance.now() + 5;
    let taken = 0;
    const perSlice = Math.max(1, Math.round((this.options.configsPerSecond ?? CONFIGS_PER_SECOND) / 100));
    while (this.queue.size > 0 && taken < perSlice && performance.now() < sliceEnd) {
      const [topic, payload] = this.queue.entries().next().value as [string, Buffer];
      this.queue.delete(topic);
      taken++;
      try {
        this.onConfig(topic, payload);
      } catch (error) {
        this.once.warn(`config-failed:${topic}`, { topic, err: error }, 'home assistant config skipped');
      }
    }
    if (this.queue.size === 0) {
      this.pumping = false;
      return;
    }
    setTimeout(() => this.pump(), 10).unref();
  }

  private reject(topic: string, reason: string) {
    this.once.warn(
      `rejected:${topic}:${reason}`,
      { topic, reason },
      'home assistant discovery config refused',
    );
    this.rejectedConfigs.unshift({ topic, reason, at: new Date().toISOString() });
    this.rejectedConfigs.length = Math.min(this.rejectedConfigs.length, MAX_REJECTED);
  }

  onConfig(topic: string, payload: Buffer) {
    // The same config again (a broker's retained replay after a reconnect, a producer answering a
    // birth message) changes nothing.
    const digest = payload.length === 0 ? undefined : createHash('sha1').update(payload).digest('base64');
    if (digest !== undefined && this.configDigests.get(topic) === digest) return;
    this.configDigests.delete(topic);
    const parsed = parseConfig(this.options.prefix, topic, payload);
    if (parsed.kind === 'entities' && parsed.entities.length > 0 && digest !== undefined)
      this.configDigests.set(topic, digest);
    switch (parsed.kind) {
      case 'rejected':
        if (parsed.quiet)
          this.once.info(
            `quiet:${topic}`,
            { topic, reason: parsed.reason },
            'home assistant discovery config skipped',
          );
        else this.reject(topic, parsed.reason);
        return;
      case 'remove':
      case 'marker':
        for (const id of [...(this.byConfigTopic.get(topic) ?? [])]) this.removeEntity(id);
        return;
      case 'entities': {
        for (const problem of parsed.problems) {
          if (problem.quiet)
            this.once.info(
              `quiet:${problem.discoveryId}`,
              { topic, reason: problem.reason },
              'home assistant discovery component skipped',
            );
          else this.reject(topic, problem.reason);
        }
        for (const id of parsed.removed) this.removeEntity(id);
        for (const entity of parsed.entities) {
          const topics = stateTopics(entity);
          if (this.zigbee2mqttsOwn(entity, topics)) {
            this.ignored++;
            this.removeEntity(entity.discoveryId);
            this.once.info(
              `z2m:${topic}`,
              { topic },
              'home assistant discovery of a Zigbee2MQTT device left to the Zigbee2MQTT adapter',
            );
            continue;
          }
          const overlap = this.overlapping(topics);
          if (overlap) {
            this.reject(topic, overlap);
            continue;
          }
          if (
            !this.entities.has(entity.discoveryId) &&
            this.entities.size >= (this.options.maxEntities ?? MAX_ENTITIES)
          ) {
            this.reject(topic, `more than ${this.options.maxEntities ?? MAX_ENTITIES} entities`);
            continue;
          }
          this.upsertEntity(entity, topics);
        }
      }
    }
  }

  /** Zigbee2MQTT publishes discovery for its own devices: while its adapter serves that base topic, Hearth shows them once. */
  private zigbee2mqttsOwn(entity: EntityConfig, reads: [string, string][]): boolean {
    const base = this.options.zigbee2mqttBaseTopic;
    if (!base) return false;
    const topics = [
      ...reads.map(([, t]) => t),
      ...Object.entries(entity.config)
        .filter(([k, v]) => k.endsWith('command_topic') && typeof v === 'string')
        .map(([, v]) => v as string),
    ];
    const underBase = topics.some((t) => t === base || t.startsWith(`${base}/`));
    const fromZigbee2mqtt =
      /zigbee2mqtt/i.test(entity.origin?.name ?? '') ||
      (entity.device?.identifiers ?? []).some((id) => id.startsWith('zigbee2mqtt_')) ||
      (entity.device?.via_device ?? '').startsWith('zigbee2mqtt_bridge_');
    return underBase || (fromZigbee2mqtt && topics.length === 0);
  }

  /** A wildcard state topic that could take in the prefix's or Zigbee2MQTT's messages is refused. */
  private overlapping(reads: [string, string][]): string | undefined {
    for (const [key, topic] of reads) {
      if (!/[#+]/.test(topic)) continue;
      const roots = [this.options.prefix, this.options.zigbee2mqttBaseTopic].filter(
        (r): r is string => r !== undefined,
      );
      if (roots.some((root) => mayOverlap(topic, root)))
        return `${key} ${topic} would overlap another source's topics`;
    }
    return undefined;
  }

  private deviceKeyOf(entity: EntityConfig): string {
    const info = entity.device;
    const keys = [
      ...(info?.identifiers ?? []),
      ...(info?.connections ?? []).map(([type, value]) => `${type}:${value}`),
    ];
    for (const key of keys) {
      const known = this.deviceIndex.get(key);
      if (known) return known;
    }
    return info?.identifiers[0] ?? (keys[0] || entity.uniqueId || `${entity.discoveryId}`);
  }

  private upsertEntity(config: EntityConfig, reads: [string, string][]) {
    const before = this.entities.get(config.discoveryId);
    const deviceKey = this.deviceKeyOf(config);
    const state: EntityState = {
      // Its device as described is merged into the device's (below): not kept once per entity.
      config: { ...config, device: undefined },
      deviceKey,
      value: before && before.config.component === config.component ? before.value : undefined,
      availability: availabilityOf(config.config),
      heard: before?.heard ?? new Map(),
      latest: before?.latest,
      error: this.templateProblem(config),
      attributes: before?.attributes,
      attributesAt: before?.attributesAt ?? 0,
      stateTopics: reads,
      attributesTopic:
        typeof config.config.json_attributes_topic === 'string'
          ? config.config.json_attributes_topic
          : undefined,
      expireAfter: positive(config.config.expire_after),
      offDelay: config.component === 'binary_sensor' ? positive(config.config.off_delay) : undefined,
      property: undefined,
      topics: [],
      timers: {},
    };
    if (before) this.clearTimers(before);
    this.entities.set(config.discoveryId, state);
    const ids = this.byConfigTopic.get(config.topic);
    if (!ids) this.byConfigTopic.set(config.topic, [config.discoveryId]);
    else if (!ids.includes(config.discoveryId)) ids.push(config.discoveryId);
    let device = this.devices.get(deviceKey);
    if (!device) {
      device = { externalId: deviceKey, entities: new Set(), info: undefined, online: undefined };
      this.devices.set(deviceKey, device);
    }
    device.entities.add(config.discoveryId);
    this.propertiesChanged(device);
    device.info = mergeInfo(device.info, config.device);
    for (const key of [
      ...(config.device?.identifiers ?? []),
      ...(config.device?.connections ?? []).map(([t, v]) => `${t}:${v}`),
    ])
      this.deviceIndex.set(key, deviceKey);
    if (before && before.deviceKey !== deviceKey) this.leaveDevice(before.deviceKey, config.discoveryId);
    this.markDirty(deviceKey);
    this.attach(state);
    // Topics it still listens on stay subscribed; only those it left go.
    if (before) this.detach(before, new Set(state.topics));
  }

  /** A template the config carries that can't be parsed marks the capability at once. */
  private templateProblem(config: EntityConfig): string | undefined {
    for (const [key, value] of Object.entries(config.config)) {
      if (!key.endsWith('template') || typeof value !== 'string') continue;
      const problem = this.templates.check(value);
      if (problem) return `${key}: ${problem}`;
    }
    return undefined;
  }

  private removeEntity(discoveryId: string) {
    const state = this.entities.get(discoveryId);
    if (!state) return;
    this.detach(state);
    this.clearTimers(state);
    this.entities.delete(discoveryId);
    // A config topic with no entity left is forgotten (its ids were kept for good before).
    const ids = this.byConfigTopic.get(state.config.topic)?.filter((id) => id !== discoveryId);
    if (ids?.length) this.byConfigTopic.set(state.config.topic, ids);
    else this.byConfigTopic.delete(state.config.topic);
    this.leaveDevice(state.deviceKey, discoveryId);
  }

  /** An entity left a device; a device left with no entity is removed (the registry keeps it). */
  private leaveDevice(deviceKey: string, discoveryId: string) {
    const device = this.devices.get(deviceKey);
    if (!device) return;
    device.entities.delete(discoveryId);
    if (device.entities.size > 0) {
      this.propertiesChanged(device);
      this.markDirty(deviceKey);
      return;
    }
    this.devices.delete(deviceKey);
    this.dirty.delete(deviceKey);
    for (const [key, owner] of this.deviceIndex) if (owner === deviceKey) this.deviceIndex.delete(key);
    this.events?.deviceRemoved(device.externalId);
  }

  /** Subscribes the entity's topics (those under the prefix come with the discovery subscription). */
  private attach(state: EntityState) {
    const topics = new Set(state.stateTopics.map(([, topic]) => topic));
    if (state.attributesTopic !== undefined) topics.add(state.attributesTopic);
    for (const entry of state.availability?.entries ?? []) topics.add(entry.topic);
    state.topics = [...topics];
    for (const topic of state.topics) {
      let ids = this.listeners.get(topic);
      if (!ids) {
        ids = new Set();
        this.listeners.set(topic, ids);
        if (/[#+]/.test(topic)) this.wildcards.set(topic, compileTopicFilter(topic));
        if (!topic.startsWith(`${this.options.prefix}/`)) this.subscribeTopic(topic);
      }
      ids.add(state.config.discoveryId);
      // What arrived under the prefix before the config: the entity hears it now. A fresh message
      // of the last moments counts as fresh (the device is heard from, and online without
      // availability of its own); kept longer, as a retained one (its news is old).
      const early = this.pending.get(topic);
      if (early)
        this.deliver(state, topic, early.payload, early.retained || Date.now() - early.at > FRESH_PENDING_MS);
    }
  }

  private detach(state: EntityState, keep: ReadonlySet<string> = new Set()) {
    for (const topic of state.topics) {
      if (keep.has(topic)) continue;
      const ids = this.listeners.get(topic);
      ids?.delete(state.config.discoveryId);
      if (ids && ids.size === 0) {
        this.listeners.delete(topic);
        this.wildcards.delete(topic);
        this.unsubscribeTopic(topic);
      }
    }
    state.topics = [];
  }

  private subscribeTopic(filter: string) {
    const subscribed = this.options.bus.subscribe(filter, (topic, payload, retained) => {
      try {
        this.onStateMessage(topic, payload, retained, filter);
      } catch (error) {
        this.once.warn(`failed:${topic}`, { topic, err: error }, 'home assistant message skipped');
      }
    });
    subscribed.catch((error) =>
      this.once.warn(`subscribe:${filter}`, { filter, err: error }, 'subscribing failed'),
    );
    this.subscriptions.set(filter, subscribed);
  }

  private unsubscribeTopic(filter: string) {
    const subscribed = this.subscriptions.get(filter);
    this.subscriptions.delete(filter);
    subscribed?.then((unsubscribe) => unsubscribe()).catch(() => {});
  }

  /** A message on a topic entities listen on: `filter` is the subscription it came through. */
  private onStateMessage(topic: string, payload: Buffer, retained: boolean, filter?: string) {
    let ids = this.listeners.get(filter ?? topic);
    if (filter === undefined)
      for (const [wildcard, matches] of this.wildcards) {
        if (!matches(topic)) continue;
        ids = new Set(ids);
        for (const id of this.listeners.get(wildcard) ?? []) ids.add(id);
      }
    if (!ids || ids.size === 0) return;
    if (payload.length > MAX_STATE_PAYLOAD) {
      this.once.warn(
        `large:${topic}`,
        { topic, bytes: payload.length },
        'home assistant state payload too large; skipped',
      );
      return;
    }
    if (payload.length === 0) return;
    const message = new Payload(payload);
    const reports: Reports = new Map();
    for (const id of ids) {
      const state = this.entities.get(id);
      if (state) this.deliver(state, filter ?? topic, payload, retained, message, reports, topic);
    }
    const lastSeen = retained ? null : new Date().toISOString();
    for (const [deviceKey, values] of reports) {
      const device = this.devices.get(deviceKey);
      if (device)
        this.events?.stateReported(device.externalId, Object.fromEntries(values), lastSeen, retained);
    }
  }

  /** What one message means for one entity: its state, attributes or availability. */
  private deliver(
    state: EntityState,
    listened: string,
    payload: Buffer,
    retained: boolean,
    message = new Payload(payload),
    reports?: Reports,
    topic = listened,
  ) {
    const c = state.config.config;
    const matches = (configured: unknown) => configured === listened || configured === topic;
    const device = this.devices.get(state.deviceKey);
    if (!device) return;
    for (const entry of state.availability ? state.availability.entries : []) {
      if (!matches(entry.topic)) continue;
      const said = availabilityMessage(entry, message, c.encoding, this.templates);
      if (said.error) this.setError(state, said.error);
      if (said.available === undefined) continue;
      state.heard.set(entry.topic, said.available);
      state.latest = said.available;
      this.updateOnline(device);
    }
    if (state.attributesTopic !== undefined && matches(state.attributesTopic)) {
      const { attributes, error } = decodeAttributes(state.config, message, this.templates);
      if (error) this.setError(state, error);
      if (attributes) this.setAttributes(state, attributes);
    }
    let changed = false;
    let heard = false;
    let errorSeen: string | undefined;
    for (const [key, configured] of state.stateTopics) {
      if (!matches(configured)) continue;
      heard = true;
      const decoded = decode(state.config, key, message, state.value, this.templates);
      if (decoded.error) errorSeen ??= decoded.error;
      if (decoded.changed) {
        state.value = decoded.value;
        changed = true;
      }
    }
    if (errorSeen) this.setError(state, errorSeen);
    else if (
      state.error &&
      !state.error.includes(': template error') &&
      !state.error.startsWith('availability')
    )
      this.setError(state, undefined);
    if (heard) this.startTimers(state);
    if (!changed) return;
    const property = this.propertyOf(state);
    const values = reports?.get(state.deviceKey);
    if (values) values.push([property, state.value]);
    else if (reports) reports.set(state.deviceKey, [[property, state.value]]);
    else
      this.events?.stateReported(
        device.externalId,
        { [property]: state.value },
        retained ? null : new Date().toISOString(),
        retained,
      );
  }

  /**
   * `expire_after`: a sensor not heard from for that many seconds is unknown (null) again; a binary
   * sensor's `off_delay`: it turns off that many seconds after it turned on (motion sensors that
   * only ever say ON).
   */
  private startTimers(state: EntityState) {
    const expire = state.expireAfter;
    if (expire) {
      clearTimeout(state.timers.expire);
      state.timers.expire = setTimeout(() => this.setValue(state, null), expire * 1000);
      state.timers.expire.unref();
    }
    const off = state.offDelay;
    if (off && state.value === true) {
      clearTimeout(state.timers.off);
      state.timers.off = setTimeout(() => this.setValue(state, false), off * 1000);
      state.timers.off.unref();
    }
  }

  private clearTimers(state: EntityState) {
    clearTimeout(state.timers.expire);
    clearTimeout(state.timers.off);
  }

  /** A value the adapter itself sets (a timer ran out), reported as fresh. */
  private setValue(state: EntityState, value: unknown) {
    const device = this.devices.get(state.deviceKey);
    if (!device || this.entities.get(state.config.discoveryId) !== state || state.value === value) return;
    state.value = value;
    this.events?.stateReported(
      device.externalId,
      { [this.propertyOf(state)]: value },
      new Date().toISOString(),
      false,
    );
  }

  private setError(state: EntityState, error: string | undefined) {
    if (state.error === error) return;
    if (error)
      this.once.warn(
        `template:${state.config.discoveryId}:${error}`,
        { entity: state.config.discoveryId, error },
        'home assistant template failed',
      );
    state.error = error;
    this.markDirty(state.deviceKey);
  }

  private setAttributes(state: EntityState, attributes: JsonObject) {
    if (JSON.stringify(attributes).length > MAX_ATTRIBUTES_BYTES) {
      this.once.warn(
        `attributes:${state.config.discoveryId}`,
        { entity: state.config.discoveryId },
        'home assistant attributes over 4 KB; skipped',
      );
      return;
    }
    state.attributes = attributes;
    const now = Date.now();
    if (now - state.attributesAt < ATTRIBUTES_EVERY_MS) return;
    state.attributesAt = now;
    this.markDirty(state.deviceKey);
  }

  private updateOnline(device: DeviceState) {
    const judged = [...device.entities]
      .map((id) => this.entities.get(id))
      .filter((s): s is EntityState => s?.availability !== undefined);
    if (judged.length === 0) return;
    const online = judged.some((s) => combined(s.availability as Availability, s.heard, s.latest));
    if (online === device.online) return;
    device.online = online;
    this.events?.availabilityChanged(device.externalId, online);
  }

  // ── devices ─────────────────────────────────────────────────────────────────────────────────

  private markDirty(deviceKey: string) {
    this.dirty.add(deviceKey);
    const delay = this.options.listDelayMs ?? 200;
    const now = Date.now();
    if (!this.flushTimer) this.flushDeadline = now + delay * 5;
    clearTimeout(this.flushTimer);
    this.flushTimer = setTimeout(
      () => this.flush(false),
      Math.max(0, Math.min(delay, this.flushDeadline - now)),
    );
    this.flushTimer.unref();
  }

  /**
   * Reports the changed devices (or, once settled the first time, all of them as the complete
   * list). Described a few milliseconds' worth at a time: thousands of devices never hold the loop.
   */
  private flush(complete: boolean) {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const keys = complete ? [...this.devices.keys()] : [...this.dirty];
    this.dirty.clear();
    const descriptions: DeviceDescription[] = [];
    const step = () => {
      const end = performance.now() + 5;
      while (keys.length > 0 && performance.now() < end) {
        const device = this.devices.get(keys.pop() as string);
        if (device && device.entities.size > 0) descriptions.push(this.describe(device));
      }
      if (keys.length > 0) {
        setImmediate(step);
        return;
      }
      if (descriptions.length > 0 || complete) this.events?.devicesListed(descriptions, complete);
    };
    step();
  }

  /** The property (and capability id) of an entity within its device: its object id, made unique. */
  private propertyOf(state: EntityState): string {
    state.property ??= this.findProperty(state);
    return state.property;
  }

  /** The entities of a device changed: their properties are found again when next asked. */
  private propertiesChanged(device: DeviceState) {
    for (const id of device.entities) {
      const state = this.entities.get(id);
      if (state) state.property = undefined;
    }
  }

  private findProperty(state: EntityState): string {
    if (state.config.component === 'device_automation') return 'action';
    const device = this.devices.get(state.deviceKey);
    let suffix = 1;
    for (const id of device?.entities ?? []) {
      if (id === state.config.discoveryId) break;
      const other = this.entities.get(id);
      if (
        other &&
        other.config.component !== 'device_automation' &&
        other.config.objectId === state.config.objectId
      )
        suffix++;
    }
    return suffix === 1 ? state.config.objectId : `${state.config.objectId}_${suffix}`;
  }

  private entityName(state: EntityState, deviceName: string): string {
    const name = state.config.config.name;
    if (name === null || name === '') return deviceName;
    return text(name) ?? humanize(state.config.objectId);
  }

  describe(device: DeviceState): DeviceDescription {
    const states = [...device.entities]
      .map((id) => this.entities.get(id))
      .filter((s): s is EntityState => s !== undefined);
    const first = states[0];
    const info = device.info;
    const deviceName =
      this.names.get(device.externalId) ?? info?.name ?? text(first?.config.config.name) ?? device.externalId;
    if (!this.names.has(device.externalId)) this.names.set(device.externalId, deviceName);
    const capabilities: Capability[] = [];
    const triggers: string[] = [];
    for (const state of states) {
      if (state.config.component === 'device_automation') {
        triggers.push(triggerName(state.config.config));
        continue;
      }
      const property = this.propertyOf(state);
      const capability = capabilityOf(state.config, this.entityName(state, deviceName));
      const metadata: Record<string, unknown> = { ...capability.metadata, entity: state.config.discoveryId };
      if (text(state.config.config.device_class)) metadata.device_class = state.config.config.device_class;
      if (text(state.config.config.entity_category)) metadata.category = state.config.config.entity_category;
      if (state.attributes) metadata.attributes = state.attributes;
      capabilities.push({
        ...capability,
        id: property,
        property,
        metadata,
        ...(state.error ? { error: state.error } : {}),
      });
    }
    if (triggers.length > 0) {
      const values = [...new Set(triggers)];
      capabilities.push({
        id: 'action',
        property: 'action',
        name: 'Action',
        kind: 'enum',
        type: 'enum',
        value_type: 'enum',
        enum: values,
        access: { readOnly: true, write: false, set: false, published: true },
        metadata: { values },
      });
    }
    const origin = first?.config.origin?.name;
    return {
      external_id: device.externalId,
      name: deviceName,
      protocol: PROTOCOL,
      manufacturer: info?.manufacturer ?? null,
      model: info?.model ?? null,
      type: deviceTypeOf(capabilities),
      description: origin ? `Home Assistant discovery from ${origin}` : null,
      firmware: info?.sw_version ?? null,
      capabilities,
      inputs: capabilities.map(toInput).filter((input) => input !== undefined),
      suggested_room: info?.suggested_area ?? null,
    };
  }

  // ── commands ────────────────────────────────────────────────────────────────────────────────

  private statesOf(device: Device): EntityState[] {
    const known = this.devices.get(device.external_id);
    return [...(known?.entities ?? [])]
      .map((id) => this.entities.get(id))
      .filter((s): s is EntityState => s !== undefined);
  }

  async command(device: Device, request: DeviceCommandRequest): Promise<Record<string, unknown>> {
    if (!isObject(request)) throw new HttpError(400, DevicehubMessages.invalidCommand);
    const { input, state } = request as { input?: unknown; state?: unknown };
    if (input === undefined && state === undefined)
      throw new HttpError(400, DevicehubMessages.missingCommand);
    if ((input !== undefined && !isObject(input)) || (state !== undefined && !isObject(state)))
      throw new HttpError(400, DevicehubMessages.invalidCommand);
    const states = this.statesOf(device);
    const byProperty = new Map(
      states.filter((s) => s.config.component !== 'device_automation').map((s) => [this.propertyOf(s), s]),
    );
    const wanted = new Map<string, unknown>();
    const sent: Record<string, unknown> = {};
    const writable = (property: string) =>
      device.capabilities.some((c) => c.property === property && !c.access.readOnly);
    if (input) {
      if (typeof input.id !== 'string' || !('value' in input))
        throw new HttpError(400, DevicehubMessages.invalidCommand);
      if (!byProperty.has(input.id) || !writable(input.id))
        throw new HttpError(400, DevicehubMessages.invalidCommand);
      wanted.set(input.id, input.value);
      sent[input.id] = input.value;
    }
    for (const [key, value] of Object.entries(state ?? {})) {
      if (key === 'on') {
        const power = states.find((s) => powerOf(s.config) && writable(this.propertyOf(s)));
        if (!power) continue;
        const property = this.propertyOf(power);
        const feature = powerOf(power.config)?.feature;
        const existing = wanted.get(property);
        if (feature === undefined) {
          if (!wanted.has(property)) wanted.set(property, value);
        } else if (!isObject(existing) || !(feature in existing))
          wanted.set(property, { ...(isObject(existing) ? existing : {}), [feature]: value });
        sent.on = value;
        continue;
      }
      if (!byProperty.has(key) || wanted.has(key) || !writable(key)) continue;
      wanted.set(key, value);
      sent[key] = value;
    }
    if (wanted.size === 0) throw new HttpError(400, DevicehubMessages.invalidCommand);
    const commands: { state: EntityState; publications: Publication[]; optimistic?: unknown }[] = [];
    for (const [property, value] of wanted) {
      const entity = byProperty.get(property) as EntityState;
      const capability = device.capabilities.find((c) => c.property === property) as Capability;
      commands.push({
        state: entity,
        ...buildCommand(entity.config, capability, value, entity.value, this.templates),
      });
    }
    if (!this.options.bus.connected) throw new HttpError(503, DevicehubMessages.busDown);
    for (const { publications } of commands)
      for (const p of publications)
        await this.options.bus.publish(p.topic, p.payload, { qos: p.qos, retain: p.retain });
    const report: Record<string, unknown> = {};
    for (const command of commands) {
      if (command.optimistic === undefined) continue;
      command.state.value = command.optimistic;
      report[this.propertyOf(command.state)] = command.optimistic;
    }
    if (Object.keys(report).length > 0)
      this.events?.stateReported(device.external_id, report, new Date().toISOString(), false);
    return sent;
  }

  /** Home Assistant discovery has no way to rename a device: Hearth keeps the name it is given. */
  async rename(device: Device, name: string): Promise<string> {
    if (name.length > 128 || [...name].some((c) => c.charCodeAt(0) < 32))
      throw new HttpError(400, DevicehubMessages.invalidName);
    this.names.set(device.external_id, name);
    if (this.devices.has(device.external_id)) this.markDirty(device.external_id);
    return name;
  }

  /** Home Assistant's entities have no state request: they publish on change (retained, mostly). */
  async requestState(): Promise<boolean> {
    return false;
  }
}

/** A device's description from all its entities' `dev` (later entities fill in what earlier ones left out). */
function mergeInfo(before: DeviceInfo | undefined, next: DeviceInfo | undefined): DeviceInfo | undefined {
  if (!before) return next;
  if (!next) return before;
  return {
    identifiers: [...new Set([...before.identifiers, ...next.identifiers])],
    connections: [
      ...before.connections,
      ...next.connections.filter(([t, v]) => !before.connections.some(([bt, bv]) => bt === t && bv === v)),
    ],
    name: next.name ?? before.name,
    manufacturer: next.manufacturer ?? before.manufacturer,
    model: next.model ?? before.model,
    sw_version: next.sw_version ?? before.sw_version,
    suggested_area: next.suggested_area ?? before.suggested_area,
    via_device: next.via_device ?? before.via_device,
  };
}
