import { createHash } from 'node:crypto';
import type { Capability, Device, DeviceCommandRequest, Input } from '@hearth/contracts';
import type { Logger } from 'pino';
import type { Bus } from '../../../bus/bus.js';
import { HttpError } from '../../../http/errors.js';
import type { JsonObject } from '../../../shared/json.js';
import { DevicehubMessages } from '../../devicehub.errors.js';
import { LogOnce } from '../../log-once.js';
import type { AdapterEvents, DeviceAdapter, DeviceDescription } from '../adapter.js';
import { deviceTypeOf, toInput } from '../zigbee2mqtt/exposes.js';
import { commandFor } from './commands.js';
import { discoveryTopic, fullTopicOf, parseConfig, parseSensors, type TasmotaConfig } from './discovery.js';
import { capabilitiesOf, modelOf, type Part, type TasmotaModel } from './model.js';
import { requestedValues } from './request.js';
import { type Channel, decodeMessage, pollsOf, reads } from './telemetry.js';

export const PROTOCOL = 'tasmota';
/** State payloads larger than this are skipped. */
export const MAX_STATE_PAYLOAD = 256 * 1024;
/** Most devices the adapter keeps (the hub also bounds all sources by DEVICEHUB_MAX_DEVICES). */
export const MAX_DEVICES = 10_000;
/** Most discovery messages waiting to be read, and how many are read per second. */
const MAX_QUEUED = 20_000;
const DISCOVERY_PER_SECOND = 1000;
/** A device's messages read per second; more are coalesced (the newest per topic) into the next second. */
const MESSAGES_PER_SECOND = 20;
/** `sensors` messages kept for devices whose `config` has not come yet. */
const MAX_EARLY_SENSORS = 2000;
/** A push-on switch (switch mode 13, 14) turns off this long after it turned on. */
const PUSH_ON_MS = 1000;
const MAX_REJECTED = 100;
/** Distinct capability sets kept to be shared. */
const MAX_SHAPES = 1000;

export interface TasmotaAdapterOptions {
  bus: Bus;
  /** TASMOTA_DISCOVERY_PREFIX (Tasmota's own: `tasmota/discovery`). */
  prefix: string;
  log: Logger;
  /** The registry's names of this source's devices (Hearth's name wins once a device is listed). */
  storedNames?: () => Promise<Record<string, string>>;
  /** How long after subscribing the first complete list waits (and for a quiet second). */
  settleMs?: number;
  /** How long changes gather before they are listed. */
  listDelayMs?: number;
  maxDevices?: number;
  /** Discovery messages read per second (DISCOVERY_PER_SECOND). */
  discoveryPerSecond?: number;
  /** A device's messages read per second (MESSAGES_PER_SECOND). */
  messagesPerSecond?: number;
}

/** A discovery message Hearth refused: for admins (the Sources page), newest first. */
export interface RejectedConfig {
  topic: string;
  reason: string;
  at: string;
}

interface Topics {
  cmnd: string;
  stat: string;
  tele: string;
}

interface TasmotaDevice {
  mac: string;
  config: TasmotaConfig;
  sensors: JsonObject | undefined;
  model: TasmotaModel;
  capabilities: Capability[];
  topics: Topics;
  /** Each part's value now (a composite's whole object). */
  values: Record<string, unknown>;
  online: boolean | undefined;
  unsubscribe: Promise<() => void>[];
  pushTimers: Map<string, NodeJS.Timeout> | undefined;
  /** Flood control: messages read in the current second, and the newest of each topic held back. */
  window: {
    start: number;
    count: number;
    held: Map<string, { payload: Buffer; retained: boolean }> | undefined;
    timer?: NodeJS.Timeout;
  };
}

const topicsOf = (config: TasmotaConfig): Topics => ({
  cmnd: fullTopicOf(config, 'cmnd'),
  stat: fullTopicOf(config, 'stat'),
  tele: fullTopicOf(config, 'tele'),
});

/**
 * Tasmota's native discovery (docs/devicehub.md#tasmota-mapping): the retained configs under the
 * discovery prefix become devices, their `stat/` and `tele/` topics are subscribed and read, and
 * commands are published on `cmnd/` as Tasmota takes them.
 */
export class TasmotaAdapter implements DeviceAdapter {
  readonly protocol = PROTOCOL;
  private readonly log: Logger;
  private readonly once: LogOnce;
  private events: AdapterEvents | undefined;
  private unsubscribe: (() => void) | undefined;
  private readonly devices = new Map<string, TasmotaDevice>();
  private readonly earlySensors = new Map<string, JsonObject>();
  private readonly digests = new Map<string, string>();
  private readonly queue = new Map<string, Buffer>();
  private pumping = false;
  private readonly dirty = new Set<string>();
  private flushTimer: NodeJS.Timeout | undefined;
  private flushDeadline = 0;
  private settled = false;
  private settleTimer: NodeJS.Timeout | undefined;
  private lastDiscoveryAt = 0;
  private startedAt = 0;
  private readonly names = new Map<string, string>();
  private readonly shapes = new Map<string, Capability[]>();
  private readonly inputs = new WeakMap<Capability[], Input[]>();
  private readonly rejectedConfigs: RejectedConfig[] = [];
  private stopped = false;

  constructor(private readonly options: TasmotaAdapterOptions) {
    this.log = options.log.child({ adapter: PROTOCOL });
    this.once = new LogOnce(this.log);
  }

  async start(events: AdapterEvents) {
    this.events = events;
    try {
      for (const [externalId, name] of Object.entries((await this.options.storedNames?.()) ?? {}))
        this.names.set(externalId, name);
    } catch (error) {
      this.log.warn({ err: error }, 'reading the registry names of Tasmota devices failed');
    }
    const { prefix } = this.options;
    this.unsubscribe = await this.options.bus.subscribe(`${prefix}/#`, (topic, payload) =>
      this.onDiscoveryMessage(topic, payload),
    );
    this.startedAt = Date.now();
    this.settleTimer = setInterval(() => this.maybeSettle(), 250);
    this.settleTimer.unref();
    this.log.info({ prefix }, 'tasmota discovery listening');
  }

  async stop() {
    this.stopped = true;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    clearInterval(this.settleTimer);
    clearTimeout(this.flushTimer);
    for (const device of this.devices.values()) this.detach(device);
  }

  ready() {
    return this.unsubscribe !== undefined;
  }

  /** Discovery messages refused lately, newest first (for admins). */
  rejected(): RejectedConfig[] {
    return [...this.rejectedConfigs];
  }

  /** How many devices this adapter serves, and how many messages of flooding devices it holds back. */
  counts() {
    let held = 0;
    for (const device of this.devices.values()) held += device.window.held?.size ?? 0;
    return { devices: this.devices.size, held };
  }

  /**
   * Clears a retained discovery message nobody removes any more (a device long gone): an empty
   * retained message on its topic (a config's `sensors` with it). Resolves false for a topic that
   * is not one of the prefix's discovery topics.
   */
  async forget(topic: string): Promise<boolean> {
    const found = discoveryTopic(this.options.prefix, topic);
    if (!found) return false;
    const topics = found.kind === 'config' ? [topic, `${this.options.prefix}/${found.mac}/sensors`] : [topic];
    for (const each of topics) await this.options.bus.publish(each, '', { qos: 1, retain: true });
    return true;
  }

  /** The first complete list, once the broker's retained configs are in. */
  private maybeSettle() {
    if (this.settled) return;
    const now = Date.now();
    const settleMs = this.options.settleMs ?? 5000;
    const quiet = now - this.lastDiscoveryAt > Math.min(1000, settleMs) && this.queue.size === 0;
    if ((now - this.startedAt >= settleMs && quiet) || now - this.startedAt >= settleMs * 6) {
      this.settled = true;
      clearInterval(this.settleTimer);
      this.flush(true);
    }
  }

  // ── discovery ────────────────────────────────────────────────────────────────────────────────

  /** A message under the discovery prefix; never throws. */
  onDiscoveryMessage(topic: string, payload: Buffer) {
    if (!discoveryTopic(this.options.prefix, topic)) return;
    this.lastDiscoveryAt = Date.now();
    if (!this.queue.has(topic) && this.queue.size >= MAX_QUEUED) {
      this.once.warn(
        'queue-full',
        { topic, queued: this.queue.size },
        'too many tasmota discovery messages at once; some skipped until they are sent again',
      );
      return;
    }
    this.queue.delete(topic);
    this.queue.set(topic, payload);
    if (!this.pumping) {
      this.pumping = true;
      setImmediate(() => this.pump());
    }
  }

  /** Reads queued discovery messages in slices of the event loop, at most DISCOVERY_PER_SECOND. */
  private pump() {
    if (this.stopped) return;
    const sliceEnd = performance.now() + 5;
    const perSlice = Math.max(1, Math.round((this.options.discoveryPerSecond ?? DISCOVERY_PER_SECOND) / 100));
    let taken = 0;
    while (this.queue.size > 0 && taken < perSlice && performance.now() < sliceEnd) {
      const [topic, payload] = this.queue.entries().next().value as [string, Buffer];
      this.queue.delete(topic);
      taken++;
      try {
        this.onDiscovery(topic, payload);
      } catch (error) {
        this.once.warn(`failed:${topic}`, { topic, err: error }, 'tasmota discovery message skipped');
      }
    }
    if (this.queue.size === 0) {
      this.pumping = false;
      return;
    }
    setTimeout(() => this.pump(), 10).unref();
  }

  private reject(topic: string, reason: string) {
    this.once.warn(`rejected:${topic}:${reason}`, { topic, reason }, 'tasmota discovery message refused');
    this.rejectedConfigs.unshift({ topic, reason, at: new Date().toISOString() });
    this.rejectedConfigs.length = Math.min(this.rejectedConfigs.length, MAX_REJECTED);
  }

  /** One discovery message (already queued and due). */
  onDiscovery(topic: string, payload: Buffer) {
    const found = discoveryTopic(this.options.prefix, topic);
    if (!found) return;
    // The same message again (a retained replay after a reconnect) changes nothing.
    const digest = payload.length === 0 ? '' : createHash('sha1').update(payload).digest('base64');
    if (this.digests.get(topic) === digest) return;
    this.digests.delete(topic);
    const { mac } = found;
    if (found.kind === 'sensors') {
      const parsed = parseSensors(payload);
      if (parsed.kind === 'rejected') return this.reject(topic, parsed.reason);
      const device = this.devices.get(mac);
      // Remembered only for a device Hearth keeps (a flood of strangers' topics stays bounded).
      if (device && parsed.kind === 'sensors') this.digests.set(topic, digest);
      if (parsed.kind === 'remove') {
        this.earlySensors.delete(mac);
        if (device) this.rebuild(device, device.config, undefined);
        return;
      }
      if (device) return this.rebuild(device, device.config, parsed.sensors);
      this.earlySensors.delete(mac);
      this.earlySensors.set(mac, parsed.sensors);
      if (this.earlySensors.size > MAX_EARLY_SENSORS)
        this.earlySensors.delete(this.earlySensors.keys().next().value as string);
      return;
    }
    const parsed = parseConfig(mac, payload);
    switch (parsed.kind) {
      case 'rejected':
        return this.reject(topic, parsed.reason);
      case 'remove':
        return this.remove(mac);
      case 'config': {
        const device = this.devices.get(mac);
        if (device) {
          this.digests.set(topic, digest);
          return this.rebuild(device, parsed.config, device.sensors);
        }
        const max = this.options.maxDevices ?? MAX_DEVICES;
        if (this.devices.size >= max) return this.reject(topic, `more than ${max} devices`);
        this.digests.set(topic, digest);
        return this.add(parsed.config);
      }
    }
  }

  private add(config: TasmotaConfig) {
    const sensors = this.earlySensors.get(config.mac);
    this.earlySensors.delete(config.mac);
    const model = modelOf(config, sensors);
    const device: TasmotaDevice = {
      mac: config.mac,
      config,
      sensors,
      model,
      capabilities: this.shared(capabilitiesOf(model)),
      topics: topicsOf(config),
      values: {},
      online: undefined,
      unsubscribe: [],
      pushTimers: undefined,
      window: { start: 0, count: 0, held: undefined },
    };
    this.devices.set(config.mac, device);
    this.markDirty(config.mac);
    this.attach(device);
  }

  /** A changed config or sensors message: the device's parts again; its topics only if they moved. */
  private rebuild(device: TasmotaDevice, config: TasmotaConfig, sensors: JsonObject | undefined) {
    const topics = topicsOf(config);
    const moved = JSON.stringify(topics) !== JSON.stringify(device.topics);
    if (moved) this.detach(device);
    device.config = config;
    device.sensors = sensors;
    device.model = modelOf(config, sensors);
    device.capabilities = this.shared(capabilitiesOf(device.model));
    device.topics = topics;
    const properties = new Set(device.capabilities.map((c) => c.property));
    for (const property of Object.keys(device.values))
      if (!properties.has(property)) delete device.values[property];
    this.markDirty(device.mac);
    if (moved) this.attach(device);
  }

  private remove(mac: string) {
    const device = this.devices.get(mac);
    if (!device) return;
    this.detach(device);
    this.devices.delete(mac);
    this.dirty.delete(mac);
    this.digests.delete(`${this.options.prefix}/${mac}/config`);
    this.digests.delete(`${this.options.prefix}/${mac}/sensors`);
    this.events?.deviceRemoved(mac);
  }

  private attach(device: TasmotaDevice) {
    for (const prefix of ['stat', 'tele'] as const) {
      const root = device.topics[prefix];
      const subscribed = this.options.bus.subscribe(`${root}+`, (topic, payload, retained) => {
        try {
          if (this.devices.get(device.mac) !== device) return;
          this.onDeviceMessage(device, { prefix, command: topic.slice(root.length) }, payload, retained);
        } catch (error) {
          this.once.warn(`failed:${topic}`, { topic, err: error }, 'tasmota message skipped');
        }
      });
      subscribed.catch((error) =>
        this.once.warn(`subscribe:${root}`, { filter: `${root}+`, err: error }, 'subscribing failed'),
      );
      device.unsubscribe.push(subscribed);
    }
  }

  private detach(device: TasmotaDevice) {
    for (const subscribed of device.unsubscribe)
      subscribed.then((unsubscribe) => unsubscribe()).catch(() => {});
    device.unsubscribe = [];
    for (const timer of device.pushTimers?.values() ?? []) clearTimeout(timer);
    device.pushTimers = undefined;
    clearTimeout(device.window.timer);
    device.window.held = undefined;
  }

  // ── device messages ──────────────────────────────────────────────────────────────────────────

  /** A message on one of a device's topics, within its share of messages per second. */
  private onDeviceMessage(device: TasmotaDevice, channel: Channel, payload: Buffer, retained: boolean) {
    // Only the topics Hearth reads count (and are held back): a flood of other ones costs nothing.
    if (!reads(channel)) return;
    if (payload.length > MAX_STATE_PAYLOAD) {
      this.once.warn(
        `large:${device.mac}:${channel.command}`,
        {
          device: device.mac,
          topic: `${device.topics[channel.prefix]}${channel.command}`,
          bytes: payload.length,
        },
        'tasmota state payload too large; skipped',
      );
      return;
    }
    // Availability always counts; everything else waits its turn when the device floods.
    if (channel.command !== 'LWT') {
      const window = device.window;
      const now = Date.now();
      if (now - window.start >= 1000) {
        window.start = now;
        window.count = 0;
      }
      const perSecond = this.options.messagesPerSecond ?? MESSAGES_PER_SECOND;
      if (window.count >= perSecond) {
        this.once.warn(
          `flood:${device.mac}`,
          { device: device.mac, perSecond },
          'tasmota device sends more messages than Hearth reads; the newest of each topic is read each second',
        );
        const key = `${channel.prefix}/${channel.command}`;
        window.held ??= new Map();
        window.held.delete(key);
        window.held.set(key, { payload, retained });
        window.timer ??= setTimeout(() => this.release(device), Math.max(0, window.start + 1000 - now));
        return;
      }
      window.count++;
    }
    this.read(device, channel, payload, retained);
  }

  /** The messages a flooding device's last second held back: read now (the newest of each topic). */
  private release(device: TasmotaDevice) {
    const window = device.window;
    window.timer = undefined;
    const held = [...(window.held ?? [])];
    window.held = undefined;
    for (const [key, { payload, retained }] of held) {
      const [prefix, command] = key.split(/\/(.*)/s) as ['stat' | 'tele', string];
      this.onDeviceMessage(device, { prefix, command }, payload, retained);
    }
  }

  private read(device: TasmotaDevice, channel: Channel, payload: Buffer, retained: boolean) {
    const decoded = decodeMessage(device.model, channel, payload.toString('utf8'), device.values);
    if (decoded.malformed)
      this.once.warn(
        `malformed:${device.mac}:${channel.command}`,
        { device: device.mac, topic: `${device.topics[channel.prefix]}${channel.command}` },
        'tasmota message is not the JSON expected; skipped',
      );
    if (decoded.online !== undefined) return this.setOnline(device, decoded.online);
    // A device heard from without a word on its LWT is online.
    if (!retained && device.online === undefined && !decoded.malformed) this.setOnline(device, true, true);
    if (Object.keys(decoded.state).length === 0) return;
    for (const [property, value] of Object.entries(decoded.state))
      if (property !== 'action') device.values[property] = value;
    this.events?.stateReported(
      device.mac,
      decoded.state,
      retained ? null : new Date().toISOString(),
      retained,
    );
    for (const property of decoded.pushed ?? []) this.pushOff(device, property);
  }

  /** A push-on switch turns off a second after it turned on (it never says so itself). */
  private pushOff(device: TasmotaDevice, property: string) {
    device.pushTimers ??= new Map();
    clearTimeout(device.pushTimers.get(property));
    const timer = setTimeout(() => {
      device.pushTimers?.delete(property);
      if (this.devices.get(device.mac) !== device || device.values[property] !== true) return;
      device.values[property] = false;
      this.events?.stateReported(device.mac, { [property]: false }, new Date().toISOString(), false);
    }, PUSH_ON_MS);
    timer.unref();
    device.pushTimers.set(property, timer);
  }

  /** LWT: the device's availability; when it comes online, Hearth asks for its state and sensors. */
  private setOnline(device: TasmotaDevice, online: boolean, quiet = false) {
    const changed = device.online !== online;
    device.online = online;
    if (changed) this.events?.availabilityChanged(device.mac, online);
    if (online && changed && !quiet) void this.poll(device);
  }

  private async poll(device: TasmotaDevice): Promise<boolean> {
    try {
      for (const { topic, payload } of pollsOf(device.topics.cmnd))
        await this.options.bus.publish(topic, payload, { qos: 0, retain: false });
      return true;
    } catch (error) {
      this.log.debug({ err: error, device: device.mac }, 'asking a tasmota device for its state failed');
      return false;
    }
  }

  /** The inputs of a (shared) set of capabilities, made once. */
  private inputsOf(capabilities: Capability[]): Input[] {
    let inputs = this.inputs.get(capabilities);
    if (!inputs) {
      inputs = capabilities.map(toInput).filter((input) => input !== undefined);
      this.inputs.set(capabilities, inputs);
    }
    return inputs;
  }

  /** Devices of one model share one copy of their capabilities (thousands of plugs alike). */
  private shared(capabilities: Capability[]): Capability[] {
    const key = JSON.stringify(capabilities);
    const known = this.shapes.get(key);
    if (known) return known;
    if (this.shapes.size >= MAX_SHAPES) this.shapes.clear();
    this.shapes.set(key, capabilities);
    return capabilities;
  }

  // ── listing ──────────────────────────────────────────────────────────────────────────────────

  private markDirty(mac: string) {
    this.dirty.add(mac);
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

  /** Reports the changed devices, or once settled the first time all of them as the complete list. */
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
        if (device) descriptions.push(this.describe(device));
      }
      if (keys.length > 0) {
        setImmediate(step);
        return;
      }
      if (descriptions.length > 0 || complete) this.events?.devicesListed(descriptions, complete);
    };
    step();
  }

  describe(device: TasmotaDevice): DeviceDescription {
    const { config } = device;
    const name = this.names.get(device.mac) ?? config.deviceName;
    if (!this.names.has(device.mac)) this.names.set(device.mac, name);
    return {
      external_id: device.mac,
      name,
      protocol: PROTOCOL,
      manufacturer: 'Tasmota',
      model: config.model,
      type: deviceTypeOf(device.capabilities),
      description: config.ip ? `Tasmota ${config.hostname} at ${config.ip}` : `Tasmota ${config.hostname}`,
      firmware: config.firmware,
      capabilities: device.capabilities,
      inputs: this.inputsOf(device.capabilities),
    };
  }

  // ── commands ─────────────────────────────────────────────────────────────────────────────────

  /** The part a `state.on` switches: the first relay, light or fan. */
  private powerOf(device: TasmotaDevice): Capability | undefined {
    const part = device.model.parts.find((p) => p.kind === 'relay' || p.kind === 'light' || p.kind === 'fan');
    return part && device.capabilities.find((c) => c.property === part.property);
  }

  private known(device: Device): TasmotaDevice {
    const known = this.devices.get(device.external_id);
    if (!known) throw new HttpError(503, DevicehubMessages.bridgeOffline);
    return known;
  }

  async command(device: Device, request: DeviceCommandRequest): Promise<Record<string, unknown>> {
    const known = this.known(device);
    const { values, sent } = requestedValues(known.capabilities, request, this.powerOf(known));
    const publications = [...values].flatMap(([property, value]) => {
      const part = known.model.parts.find((p) => p.property === property) as Part;
      return commandFor(known.model, part, value, known.values[property], known.topics.cmnd);
    });
    if (publications.length === 0) throw new HttpError(400, DevicehubMessages.invalidCommand);
    if (!this.options.bus.connected) throw new HttpError(503, DevicehubMessages.busDown);
    for (const { topic, payload } of publications)
      await this.options.bus.publish(topic, payload, { qos: 0, retain: false });
    return sent;
  }

  /** Tasmota's discovery has no rename Hearth may use: Hearth keeps the name it is given. */
  async rename(device: Device, name: string): Promise<string> {
    if (name.length > 128 || [...name].some((c) => c.charCodeAt(0) < 32))
      throw new HttpError(400, DevicehubMessages.invalidName);
    this.names.set(device.external_id, name);
    if (this.devices.has(device.external_id)) this.markDirty(device.external_id);
    return name;
  }

  /** `STATE` and `STATUS 10`: the device answers on `stat/RESULT`… and `stat/STATUS10`. */
  async requestState(device: Device): Promise<boolean> {
    const known = this.devices.get(device.external_id);
    return known ? this.poll(known) : false;
  }
}
