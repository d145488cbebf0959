import type { Capability, Device, DeviceCommandRequest } from '@hearth/contracts';
import type { Logger } from 'pino';
import { type Bus, compileTopicFilter } from '../../../bus/bus.js';
import { HttpError } from '../../../http/errors.js';
import { isObject, type JsonObject } from '../../../shared/json.js';
import { DevicehubMessages } from '../../devicehub.errors.js';
import { LogOnce } from '../../log-once.js';
import type { AdapterEvents, DeviceAdapter, DeviceDescription } from '../adapter.js';
import { requestedValues } from '../tasmota/request.js';
import { deviceTypeOf, toInput } from '../zigbee2mqtt/exposes.js';
import { actionOf, callsFor, capabilitiesOf, modelOf, type ShellyModel, valuesOf } from './components.js';
import { boundedStatus, mergeStatus, parseNotification } from './frames.js';
import { RpcBusy, RpcError, RpcTimeout, ShellyRpc } from './rpc.js';

export const PROTOCOL = 'shelly';
/** Payloads larger than this are skipped. */
export const MAX_PAYLOAD = 256 * 1024;
/** Most devices (topic prefixes) the adapter keeps. */
export const MAX_DEVICES = 10_000;
/** Devices asked for their description and status at once, and most waiting to be asked. */
const PROBES_AT_ONCE = 8;
const MAX_QUEUED_PROBES = 20_000;
/** A device that did not answer is asked again at most this often. */
const PROBE_RETRY_MS = 60_000;
/** A device's state reports per second; a flooding device's changes are reported once at the end of its second. */
const REPORTS_PER_SECOND = 20;
const MAX_REJECTED = 100;

export interface ShellyAdapterOptions {
  bus: Bus;
  log: Logger;
  /** Where devices are: `+` (the top level) and SHELLY_TOPIC_PREFIXES (prefixes or patterns with `+`). */
  prefixes: string[];
  /** Hearth's own `src` (replies come on `<src>/rpc`). */
  src: string;
  /** The registry's names of this source's devices (Hearth's name wins once a device is listed). */
  storedNames?: () => Promise<Record<string, string>>;
  /** The registry's devices (this source's are taken): a device offline at start keeps its description. */
  storedDevices?: () => Promise<Device[]>;
  rpcTimeoutMs?: number;
  settleMs?: number;
  listDelayMs?: number;
  maxDevices?: number;
  reportsPerSecond?: number;
}

/** A message Hearth refused: for admins (the Sources page), newest first. */
export interface RejectedMessage {
  topic: string;
  reason: string;
  at: string;
}

interface DeviceInfo {
  id: string | undefined;
  name: string | null;
  model: string | null;
  app: string | null;
  gen: number | null;
  firmware: string | null;
}

interface ShellyDevice {
  prefix: string;
  /** The device's own id (`src` of its frames). */
  src: string | undefined;
  info: DeviceInfo | undefined;
  status: JsonObject | undefined;
  model: ShellyModel | undefined;
  capabilities: Capability[];
  /** Which parts the model has: a status with other parts describes the device again. */
  signature: string;
  values: Record<string, unknown>;
  online: boolean | undefined;
  /** Its `<prefix>/online` was retained (the broker knows the device). */
  retained: boolean;
  listed: boolean;
  probe: { running: boolean; queued: boolean; failedAt: number };
  window: { start: number; count: number; timer?: NodeJS.Timeout };
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value : null;

function infoOf(result: unknown): DeviceInfo | undefined {
  if (!isObject(result)) return undefined;
  return {
    id: text(result.id) ?? undefined,
    name: text(result.name),
    model: text(result.model),
    app: text(result.app),
    gen: typeof result.gen === 'number' ? result.gen : null,
    firmware: text(result.ver) ?? text(result.fw_id),
  };
}

/** A registry device as its adapter described it. */
const descriptionOf = (device: Device): DeviceDescription => ({
  external_id: device.external_id,
  name: device.name,
  protocol: device.protocol,
  manufacturer: device.manufacturer,
  model: device.model,
  type: device.type,
  description: device.description,
  firmware: device.firmware,
  capabilities: device.capabilities,
  inputs: device.inputs,
});

/** Which parts a model has (their properties), to tell a changed device from the same one. */
const signatureOf = (model: ShellyModel) =>
  JSON.stringify([
    model.parts.map((p) => [p.property, p.kind === 'reading' ? p.unit : p.name]),
    model.buttons,
  ]);

/**
 * Shelly Gen2/Gen3/Gen4 over MQTT (docs/devicehub.md#shelly-mapping): devices found by their
 * `<prefix>/online` and `<prefix>/events/rpc`, described by `Shelly.GetDeviceInfo` and their
 * status (NotifyFullStatus, Shelly.GetStatus; NotifyStatus changes it), controlled by JSON-RPC on
 * `<prefix>/rpc` with the reply awaited on `<src>/rpc`.
 */
export class ShellyAdapter implements DeviceAdapter {
  readonly protocol = PROTOCOL;
  private readonly log: Logger;
  private readonly once: LogOnce;
  private readonly rpc: ShellyRpc;
  private events: AdapterEvents | undefined;
  private readonly unsubscribes: Promise<() => void>[] = [];
  private readonly devices = new Map<string, ShellyDevice>();
  private readonly probes = new Set<string>();
  private probing = 0;
  private readonly dirty = new Set<string>();
  private flushTimer: NodeJS.Timeout | undefined;
  private flushDeadline = 0;
  private settled = false;
  private settleTimer: NodeJS.Timeout | undefined;
  private startedAt = 0;
  private lastHeardAt = 0;
  private readonly names = new Map<string, string>();
  private readonly stored = new Map<string, DeviceDescription>();
  private readonly rejectedMessages: RejectedMessage[] = [];
  private started = false;
  private listening = false;

  constructor(private readonly options: ShellyAdapterOptions) {
    this.log = options.log.child({ adapter: PROTOCOL });
    this.once = new LogOnce(this.log);
    this.rpc = new ShellyRpc(options.bus, options.src, this.log, options.rpcTimeoutMs);
  }

  async start(events: AdapterEvents) {
    this.events = events;
    try {
      for (const [externalId, name] of Object.entries((await this.options.storedNames?.()) ?? {}))
        this.names.set(externalId, name);
      for (const device of (await this.options.storedDevices?.()) ?? [])
        if (device.protocol === PROTOCOL) this.stored.set(device.external_id, descriptionOf(device));
    } catch (error) {
      this.log.warn({ err: error }, 'reading the registry of Shelly devices failed');
    }
    await this.rpc.start();
    // Retained `online` messages come while the subscriptions are being made: devices are asked at once.
    this.started = true;
    // A topic two patterns match (a prefix also at the top level) is read once, by the first.
    const patterns = [...new Set(this.options.prefixes)];
    const matchers = patterns.map((pattern) => ({
      pattern,
      online: compileTopicFilter(`${pattern}/online`),
      events: compileTopicFilter(`${pattern}/events/rpc`),
      status: compileTopicFilter(`${pattern}/status/+`),
    }));
    matchers.forEach((own, i) => {
      const earlier = matchers.slice(0, i);
      const subscribe = (suffix: 'online' | 'events' | 'status', filter: string) =>
        this.unsubscribes.push(
          this.options.bus.subscribe(filter, (topic, payload, retained) => {
            if (earlier.some((m) => m[suffix](topic))) return;
            try {
              this.onMessage(suffix, topic, payload, retained);
            } catch (error) {
              this.once.warn(`failed:${topic}`, { topic, err: error }, 'shelly message skipped');
            }
          }),
        );
      subscribe('online', `${own.pattern}/online`);
      subscribe('events', `${own.pattern}/events/rpc`);
      subscribe('status', `${own.pattern}/status/+`);
    });
    await Promise.all(this.unsubscribes);
    this.listening = true;
    this.startedAt = Date.now();
    this.settleTimer = setInterval(() => this.maybeSettle(), 250);
    this.settleTimer.unref();
    this.log.info({ prefixes: patterns, src: this.options.src }, 'shelly listening');
  }

  async stop() {
    this.started = false;
    this.listening = false;
    for (const subscribed of this.unsubscribes)
      subscribed.then((unsubscribe) => unsubscribe()).catch(() => {});
    this.unsubscribes.length = 0;
    this.rpc.stop();
    clearInterval(this.settleTimer);
    clearTimeout(this.flushTimer);
    for (const device of this.devices.values()) clearTimeout(device.window.timer);
  }

  ready() {
    return this.listening;
  }

  /** Messages refused lately, newest first (for admins). */
  rejected(): RejectedMessage[] {
    return [...this.rejectedMessages];
  }

  /** How many devices this adapter serves, how many it is asking about now, and how many wait to be asked. */
  counts() {
    return {
      devices: [...this.devices.values()].filter((d) => d.listed).length,
      asking: this.probing,
      waiting: this.probes.size,
    };
  }

  /**
   * Forgets a device nobody removes any more: clears its retained `<prefix>/online` (the broker
   * forgets it too). Resolves false for a topic that is not a device's `online` topic.
   */
  async forget(topic: string): Promise<boolean> {
    const prefix = topic.endsWith('/online') ? topic.slice(0, -'/online'.length) : undefined;
    if (!prefix || /[#+]/.test(topic) || !this.options.prefixes.some((p) => compileTopicFilter(p)(prefix)))
      return false;
    await this.options.bus.publish(topic, '', { qos: 1, retain: true });
    return true;
  }

  private reject(topic: string, reason: string) {
    this.once.warn(`rejected:${topic}:${reason}`, { topic, reason }, 'shelly message refused');
    this.rejectedMessages.unshift({ topic, reason, at: new Date().toISOString() });
    this.rejectedMessages.length = Math.min(this.rejectedMessages.length, MAX_REJECTED);
  }

  /** The first complete list, once the retained `online` messages are in and the devices asked. */
  private maybeSettle() {
    if (this.settled) return;
    const now = Date.now();
    const settleMs = this.options.settleMs ?? 5000;
    const quiet =
      now - this.lastHeardAt > Math.min(1000, settleMs) && this.probes.size === 0 && this.probing === 0;
    if ((now - this.startedAt >= settleMs && quiet) || now - this.startedAt >= settleMs * 6) {
      this.settled = true;
      clearInterval(this.settleTimer);
      this.flush(true);
    }
  }

  // ── messages ─────────────────────────────────────────────────────────────────────────────────

  private device(prefix: string, topic: string): ShellyDevice | undefined {
    const known = this.devices.get(prefix);
    if (known) return known;
    const max = this.options.maxDevices ?? MAX_DEVICES;
    if (this.devices.size >= max) {
      // A prefix that never described itself (something else's `online`) makes room first.
      const idle = [...this.devices.values()].find(
        (d) => !d.model && !d.probe.running && !this.stored.has(d.prefix),
      );
      if (!idle) {
        this.reject(topic, `more than ${max} devices`);
        return undefined;
      }
      this.devices.delete(idle.prefix);
      this.probes.delete(idle.prefix);
    }
    const device: ShellyDevice = {
      prefix,
      src: undefined,
      info: undefined,
      status: undefined,
      model: undefined,
      capabilities: [],
      signature: '',
      values: {},
      online: undefined,
      retained: false,
      listed: false,
      probe: { running: false, queued: false, failedAt: 0 },
      window: { start: 0, count: 0 },
    };
    this.devices.set(prefix, device);
    return device;
  }

  /** A message on `<prefix>/online`, `<prefix>/events/rpc` or `<prefix>/status/<component>`. */
  onMessage(kind: 'online' | 'events' | 'status', topic: string, payload: Buffer, retained: boolean) {
    if (payload.length > MAX_PAYLOAD) {
      this.once.warn(`large:${topic}`, { topic, bytes: payload.length }, 'shelly payload too large; skipped');
      return;
    }
    this.lastHeardAt = Date.now();
    const body = payload.toString('utf8');
    if (kind === 'online') {
      const prefix = topic.slice(0, -'/online'.length);
      if (body === '') return this.remove(prefix);
      const online = body.trim() === 'true' ? true : body.trim() === 'false' ? false : undefined;
      if (online === undefined) return;
      const device =
        online || this.devices.has(prefix) || this.stored.has(prefix)
          ? this.device(prefix, topic)
          : undefined;
      if (!device) return;
      device.retained ||= retained;
      this.setOnline(device, online);
      if (online && !device.model) this.queueProbe(device);
      return;
    }
    if (kind === 'status') {
      const slash = topic.lastIndexOf('/status/');
      const device = this.devices.get(topic.slice(0, slash));
      // Only for a device Hearth knows: `+/status/+` catches more than Shelly devices.
      if (!device?.status) return;
      let component: unknown;
      try {
        component = JSON.parse(body);
      } catch {
        component = undefined;
      }
      if (!isObject(component)) return this.reject(topic, 'not a JSON object');
      return this.changed(device, { [topic.slice(slash + '/status/'.length)]: component }, false, retained);
    }
    const prefix = topic.slice(0, -'/events/rpc'.length);
    const frame = parseNotification(body);
    if (!frame) {
      if (this.devices.get(prefix)?.listed) this.reject(topic, 'not a Shelly notification');
      return;
    }
    const device = this.device(prefix, topic);
    if (!device) return;
    device.src ??= frame.src;
    if (!retained && device.online === undefined) this.setOnline(device, true);
    switch (frame.kind) {
      case 'full':
        this.changed(device, frame.status, true, retained);
        if (!device.info) this.queueProbe(device);
        return;
      case 'delta':
        if (!device.status) return this.queueProbe(device);
        this.changed(device, frame.status, false, retained);
        return;
      case 'events': {
        if (frame.events.some((e) => e.event === 'config_changed')) this.queueProbe(device, true);
        if (!device.model) return;
        const action = actionOf(device.model, frame.events);
        if (action && this.withinBudget(device))
          this.events?.stateReported(device.prefix, { action }, new Date().toISOString(), false);
        return;
      }
      default:
        return;
    }
  }

  private setOnline(device: ShellyDevice, online: boolean) {
    if (device.online === online) return;
    device.online = online;
    if (device.listed) this.events?.availabilityChanged(device.prefix, online);
  }

  /** A full status or a change merged in: the device described again if its parts changed, its changes reported. */
  private changed(device: ShellyDevice, status: JsonObject, full: boolean, retained: boolean) {
    device.status = full ? boundedStatus(status) : mergeStatus(device.status ?? {}, status);
    if (full || !device.model) {
      const model = modelOf(device.status);
      const signature = signatureOf(model);
      if (signature !== device.signature) {
        device.model = model;
        device.capabilities = capabilitiesOf(model);
        device.signature = signature;
        for (const property of Object.keys(device.values))
          if (!device.capabilities.some((c) => c.property === property)) delete device.values[property];
        this.markDirty(device.prefix);
      }
    }
    this.report(device, retained);
  }

  /** Whether a device may report now (its share of reports per second). */
  private withinBudget(device: ShellyDevice): boolean {
    const window = device.window;
    const now = Date.now();
    if (now - window.start >= 1000) {
      window.start = now;
      window.count = 0;
    }
    if (window.count >= (this.options.reportsPerSecond ?? REPORTS_PER_SECOND)) return false;
    window.count++;
    return true;
  }

  /** Reports what changed in the device's values; a flooding device's changes wait for the end of its second. */
  private report(device: ShellyDevice, retained: boolean) {
    if (!device.model || !device.status) return;
    if (device.window.timer) return;
    if (!this.withinBudget(device)) {
      this.once.warn(
        `flood:${device.prefix}`,
        { device: device.prefix, perSecond: this.options.reportsPerSecond ?? REPORTS_PER_SECOND },
        'shelly device sends more changes than Hearth reports; they are reported together each second',
      );
      device.window.timer = setTimeout(
        () => {
          device.window.timer = undefined;
          if (this.devices.get(device.prefix) === device) this.report(device, false);
        },
        Math.max(0, device.window.start + 1000 - Date.now()),
      );
      device.window.timer.unref();
      return;
    }
    const values = valuesOf(device.model, device.status);
    const changes: Record<string, unknown> = {};
    for (const [property, value] of Object.entries(values))
      if (JSON.stringify(device.values[property]) !== JSON.stringify(value)) changes[property] = value;
    if (Object.keys(changes).length === 0) return;
    Object.assign(device.values, changes);
    if (device.listed || this.dirty.has(device.prefix))
      this.events?.stateReported(
        device.prefix,
        changes,
        retained ? null : new Date().toISOString(),
        retained,
      );
  }

  private remove(prefix: string) {
    const device = this.devices.get(prefix);
    this.devices.delete(prefix);
    this.probes.delete(prefix);
    this.dirty.delete(prefix);
    this.stored.delete(prefix);
    if (!device) return;
    clearTimeout(device.window.timer);
    if (device.listed) this.events?.deviceRemoved(prefix);
  }

  // ── asking devices ───────────────────────────────────────────────────────────────────────────

  /** Asks the device (soon) for its description and status, unless it is asked already or did not answer lately. */
  private queueProbe(device: ShellyDevice, again = false) {
    if (device.probe.running || device.probe.queued) return;
    if (!again && Date.now() - device.probe.failedAt < PROBE_RETRY_MS) return;
    if (this.probes.size >= MAX_QUEUED_PROBES) {
      this.once.warn(
        'probes-full',
        { device: device.prefix },
        'too many shelly devices to ask at once; some wait',
      );
      return;
    }
    device.probe.queued = true;
    this.probes.add(device.prefix);
    this.nextProbe();
  }

  private nextProbe() {
    while (this.probing < PROBES_AT_ONCE && this.probes.size > 0 && this.started) {
      const prefix = this.probes.values().next().value as string;
      this.probes.delete(prefix);
      const device = this.devices.get(prefix);
      if (!device) continue;
      device.probe.queued = false;
      device.probe.running = true;
      this.probing++;
      void this.probe(device).finally(() => {
        device.probe.running = false;
        this.probing--;
        this.nextProbe();
      });
    }
  }

  private async probe(device: ShellyDevice) {
    try {
      const info = infoOf(await this.rpc.call(device.prefix, 'Shelly.GetDeviceInfo'));
      if (info) {
        device.info = info;
        device.src ??= info.id;
        this.markDirty(device.prefix);
      }
      const status = await this.rpc.call(device.prefix, 'Shelly.GetStatus');
      if (isObject(status)) this.changed(device, status, true, false);
      if (device.online === undefined) this.setOnline(device, true);
    } catch (error) {
      device.probe.failedAt = Date.now();
      this.log.debug({ err: error, device: device.prefix }, 'a shelly device did not describe itself');
      // Described by its notifications alone.
      if (device.model) this.markDirty(device.prefix);
    }
  }

  // ── listing ──────────────────────────────────────────────────────────────────────────────────

  private markDirty(prefix: string) {
    this.dirty.add(prefix);
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
   * Reports the changed devices, or once settled the first time the complete list: every device
   * described, and the registry's own description of those the broker knows (a retained
   * `online`) that did not answer (offline).
   */
  private flush(complete: boolean) {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const keys = complete ? [...this.devices.keys()] : [...this.dirty];
    this.dirty.clear();
    const descriptions: DeviceDescription[] = [];
    const fresh: ShellyDevice[] = [];
    for (const prefix of keys) {
      const device = this.devices.get(prefix);
      if (!device) continue;
      if (device.model) {
        descriptions.push(this.describe(device));
        if (!device.listed) fresh.push(device);
        device.listed = true;
      } else if (complete && device.retained) {
        const stored = this.stored.get(prefix);
        if (stored) descriptions.push(stored);
      }
    }
    if (descriptions.length > 0 || complete) this.events?.devicesListed(descriptions, complete);
    // What a device said before it was listed.
    for (const device of fresh) {
      if (device.online !== undefined) this.events?.availabilityChanged(device.prefix, device.online);
      if (Object.keys(device.values).length > 0)
        this.events?.stateReported(device.prefix, { ...device.values }, new Date().toISOString(), false);
    }
  }

  describe(device: ShellyDevice): DeviceDescription {
    const info = device.info;
    const fallback = info?.name ?? (info?.app ? `Shelly ${info.app}` : (device.src ?? device.prefix));
    const name = this.names.get(device.prefix) ?? fallback;
    // Hearth's name holds once the device has described itself (a rename, later a name in the Shelly app).
    if (info && !this.names.has(device.prefix)) this.names.set(device.prefix, name);
    const capabilities = device.capabilities;
    return {
      external_id: device.prefix,
      name,
      protocol: PROTOCOL,
      manufacturer: 'Shelly',
      model: info?.model ?? info?.app ?? null,
      type: deviceTypeOf(capabilities),
      description: [
        info?.app ? `Shelly ${info.app}` : 'Shelly',
        info?.gen ? `Gen${info.gen}` : undefined,
        device.src && device.src !== device.prefix ? `(${device.src})` : undefined,
      ]
        .filter(Boolean)
        .join(' '),
      firmware: info?.firmware ?? null,
      capabilities,
      inputs: capabilities.map(toInput).filter((input) => input !== undefined),
    };
  }

  // ── commands ─────────────────────────────────────────────────────────────────────────────────

  private known(device: Device): ShellyDevice & { model: ShellyModel } {
    const known = this.devices.get(device.external_id);
    if (!known?.model) throw new HttpError(503, DevicehubMessages.bridgeOffline);
    return known as ShellyDevice & { model: ShellyModel };
  }

  /** The RPC error as the command's answer: the device's refusal (502), no answer (504), too many waiting (503). */
  private failure(error: unknown): never {
    if (error instanceof RpcError)
      throw new HttpError(
        502,
        DevicehubMessages.deviceRefused(
          `${error.message}${error.code !== undefined ? ` (${error.code})` : ''}`,
        ),
      );
    if (error instanceof RpcTimeout) throw new HttpError(504, DevicehubMessages.deviceTimeout);
    if (error instanceof RpcBusy) throw new HttpError(503, DevicehubMessages.deviceBusy);
    throw error;
  }

  async command(device: Device, request: DeviceCommandRequest): Promise<Record<string, unknown>> {
    const known = this.known(device);
    const power = known.model.parts.find((p) => p.kind === 'switch' || p.kind === 'light');
    const { values, sent } = requestedValues(
      known.capabilities,
      request,
      power && known.capabilities.find((c) => c.property === power.property),
    );
    const calls = [...values].flatMap(([property, value]) => {
      const part = known.model.parts.find((p) => p.property === property);
      return part ? callsFor(part, value) : [];
    });
    if (calls.length === 0) throw new HttpError(400, DevicehubMessages.invalidCommand);
    if (!this.options.bus.connected) throw new HttpError(503, DevicehubMessages.busDown);
    for (const { method, params } of calls) {
      try {
        await this.rpc.call(known.prefix, method, params);
      } catch (error) {
        this.failure(error);
      }
    }
    return sent;
  }

  /** Hearth keeps the name it is given (the device's own name stays as the Shelly app set it). */
  async rename(device: Device, name: string): Promise<string> {
    if (name.length > 128 || [...name].some((c) => c.charCodeAt(0) < 32))
      throw new HttpError(400, DevicehubMessages.invalidName);
    this.names.set(device.external_id, name);
    if (this.devices.get(device.external_id)?.model) this.markDirty(device.external_id);
    return name;
  }

  /** `Shelly.GetStatus`: its answer is the device's whole status. */
  async requestState(device: Device): Promise<boolean> {
    const known = this.devices.get(device.external_id);
    if (!known) return false;
    try {
      const status = await this.rpc.call(known.prefix, 'Shelly.GetStatus');
      if (!isObject(status)) return false;
      this.changed(known, status, true, false);
      return true;
    } catch (error) {
      this.log.debug({ err: error, device: known.prefix }, 'asking a shelly device for its status failed');
      return false;
    }
  }
}
