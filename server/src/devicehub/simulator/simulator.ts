import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Bus, Publisher } from '../../bus/bus.js';
import { isObject, type JsonObject } from '../../shared/json.js';
import type { BridgeDevice, Expose } from '../adapters/zigbee2mqtt/z2m.types.js';
import { parseColour } from '../colour.js';
import { evolve } from './behaviour.js';
import { type DeviceTemplate, TEMPLATES } from './catalog.js';

export interface SimulatorOptions {
  bus: Bus;
  baseTopic: string;
  devices: number;
  log: Logger;
  /** State updates published per second across all devices (default: a calm household). */
  updatesPerSecond?: number;
  /** How often the one timer ticks. */
  tickMs?: number;
  /** Chance per second that some device drops off the network for a while. */
  availabilityFlipsPerSecond?: number;
  random?: () => number;
  /** Where an earlier version kept renames (DATA_DIR); read when the registry has no name. */
  dataDir?: string;
  /**
   * The names the device registry holds, by IEEE address: a rename is stored there by whichever
   * instance made it, so a restart (of any instance) keeps it.
   */
  storedNames?: () => Promise<Record<string, string>>;
  /**
   * MQTT_URL: other instances may share the bus. Then only one simulator publishes, on a connection
   * of its own whose last will says `bridge/state` offline (as Zigbee2MQTT's does); it keeps a
   * retained marker (bridge/hearth/simulator) fresh. Another stands by until the marker is cleared
   * (a clean stop), the bridge says offline (its will: a killed instance) or the marker is stale.
   */
  sharedBus?: boolean;
  /** How long to listen for another simulator's marker before publishing (shared bus). */
  claimWaitMs?: number;
  /** How often the marker is refreshed; it is stale after three of these. */
  heartbeatMs?: number;
}

/** The simulator's own file in DATA_DIR (before names were kept in the registry). */
export const NAMES_FILE = 'simulator-names.json';
/** Under the base topic; Zigbee2MQTT's adapter ignores bridge topics it does not know. */
export const SIMULATOR_MARKER = 'bridge/hearth/simulator';
const BRIDGE_STATE = 'bridge/state';
const OFFLINE = JSON.stringify({ state: 'offline' });

interface Marker {
  instance: string;
  /** When that simulator started publishing (ms); the earlier one keeps the bus. */
  since: number;
  /** Its last heartbeat (ms). */
  at: number;
}

interface VirtualDevice {
  ieee: string;
  name: string;
  /** Its name until someone renames it. */
  defaultName: string;
  template: DeviceTemplate;
  exposes: Expose[];
  state: Record<string, unknown>;
  offlineUntil: number;
}

type Raw = JsonObject;

const flatten = (exposes: Expose[]): Expose[] =>
  exposes.flatMap((e) => ('features' in e && e.type !== 'composite' ? flatten(e.features) : [e]));

/** sRGB hex → CIE xy, as a real colour bulb would report it. */
function hexToXy(hex: string) {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c > 0.04045 ? ((c + 0.055) / 1.055) ** 2.4 : c / 12.92;
  }) as [number, number, number];
  const X = r * 0.4124 + g * 0.3576 + b * 0.1805;
  const Y = r * 0.2126 + g * 0.7152 + b * 0.0722;
  const Z = r * 0.0193 + g * 0.1192 + b * 0.9505;
  const sum = X + Y + Z || 1;
  return { x: Number((X / sum).toFixed(4)), y: Number((Y / sum).toFixed(4)) };
}

/**
 * A fake Zigbee2MQTT on the bus: the retained `bridge/devices` list, state and availability
 * topics, `/set` obeyed and echoed, and renames through `bridge/request/device/rename`. One
 * timer drives every device, so thousands cost little.
 */
export class Zigbee2mqttSimulator {
  private readonly devices: VirtualDevice[] = [];
  private readonly byName = new Map<string, VirtualDevice>();
  private readonly offline = new Set<VirtualDevice>();
  private readonly random: () => number;
  private timer: NodeJS.Timeout | undefined;
  private unsubscribers: (() => void)[] = [];
  private runUnsubscribers: (() => void)[] = [];
  private readonly namesFile: string | undefined;
  private updatesPerSecond: number;
  private budget = 0;
  private cursor = 0;
  /** Names this installation in the marker: kept in DATA_DIR, so a restarted instance knows its own. */
  private readonly instance: string;
  /** Publishing (not standing by, not stopped). */
  private running = false;
  private since = 0;
  private stopped = false;
  private other: Marker | undefined;
  /** The bridge said offline after the other's marker: its will (killed) or its clean stop. */
  private bridgeOffline = false;
  /** While running on a shared bus: its own connection, with the last will. */
  private publisher: Publisher | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private watch: NodeJS.Timeout | undefined;

  constructor(private readonly options: SimulatorOptions) {
    this.random = options.random ?? Math.random;
    this.updatesPerSecond = options.updatesPerSecond ?? Math.min(50, Math.max(2, options.devices / 4));
    this.namesFile = options.dataDir ? path.join(options.dataDir, NAMES_FILE) : undefined;
    this.instance = this.installationId();
    const renamed = this.loadNames();
    for (let index = 0; index < options.devices; index++) {
      const template = TEMPLATES[index % TEMPLATES.length]!;
      const round = Math.floor(index / TEMPLATES.length);
      const ieee = `0x00124b00${(index + 1).toString(16).padStart(8, '0')}`;
      const defaultName = round === 0 ? template.name : `${template.name} ${round + 1}`;
      const device: VirtualDevice = {
        ieee,
        name: renamed[ieee] ?? defaultName,
        defaultName,
        template,
        exposes: template.exposes,
        state: structuredClone(template.state),
        offlineUntil: 0,
      };
      this.devices.push(device);
      this.byName.set(device.name, device);
    }
  }

  private topic(suffix: string) {
    return `${this.options.baseTopic}/${suffix}`;
  }

  /**
   * Starts publishing; on a shared bus first listens for another simulator's marker and, if one
   * is fresh, stands by instead (resolves either way; `isRunning()` tells which).
   */
  async start() {
    const { bus } = this.options;
    if (!this.options.sharedBus) return this.run();
    this.unsubscribers.push(
      await bus.subscribe(this.topic(SIMULATOR_MARKER), (_topic, payload) => this.onMarker(payload)),
      await bus.subscribe(this.topic(BRIDGE_STATE), (_topic, payload) => this.onBridgeState(payload)),
    );
    await new Promise((resolve) => setTimeout(resolve, this.options.claimWaitMs ?? 1000));
    if (this.stopped) return;
    if (this.otherIsFresh()) {
      this.options.log.warn(
        { other: this.other?.instance },
        "another Hearth instance's simulator is already publishing on this bus; this one stands by",
      );
      this.standBy();
      return;
    }
    await this.run();
  }

  isRunning() {
    return this.running;
  }

  private otherIsFresh(now = Date.now()) {
    return this.other !== undefined && !this.bridgeOffline && now - this.other.at < 3 * this.heartbeatMs();
  }

  private heartbeatMs() {
    return this.options.heartbeatMs ?? 5000;
  }

  private onMarker(payload: Buffer) {
    let marker: unknown;
    try {
      marker = payload.length === 0 ? undefined : JSON.parse(payload.toString('utf8'));
    } catch {
      return;
    }
    if (marker === undefined) {
      this.other = undefined;
      return;
    }
    if (!isObject(marker) || typeof marker.instance !== 'string' || marker.instance === this.instance) return;
    const since = Number(marker.since);
    this.other = { instance: marker.instance, since, at: Number(marker.at) };
    // Two started at once: the earlier one (then the smaller id) keeps the bus.
    if (this.running && (since < this.since || (since === this.since && marker.instance < this.instance))) {
      this.options.log.warn(
        { other: marker.instance },
        "another Hearth instance's simulator started first on this bus; this one stands by",
      );
      void this.pause().then(() => this.standBy());
    }
  }

  /**
   * The bridge's state as the running simulator publishes it: `offline` is its last will or its
   * clean stop, so it has gone (whatever its marker says); `online` is it running (again).
   */
  private onBridgeState(payload: Buffer) {
    const text = payload.toString('utf8').trim();
    let state: unknown = text;
    try {
      const parsed: unknown = JSON.parse(text);
      state = isObject(parsed) ? parsed.state : parsed;
    } catch {
      // Before 1.29 Zigbee2MQTT sent plain text.
    }
    this.bridgeOffline = state === 'offline';
    if (this.bridgeOffline) this.takeOverIfGone();
  }

  /** Checks now and then whether the other simulator has gone (cleared or stale marker). */
  private standBy() {
    clearInterval(this.watch);
    this.watch = setInterval(() => this.takeOverIfGone(), Math.min(1000, this.heartbeatMs()));
    this.watch.unref();
  }

  private takeOverIfGone() {
    // Before start() has decided (it listens for a while first), or running, or stopped: not here.
    if (this.watch === undefined || this.stopped || this.running || this.otherIsFresh()) return;
    clearInterval(this.watch);
    this.watch = undefined;
    this.options.log.info('the other simulator has gone; this one takes over');
    void this.run().catch((error) => this.options.log.error({ err: error }, 'simulator failed to start'));
  }

  private async run() {
    const { bus } = this.options;
    this.running = true;
    this.since = Date.now();
    await this.applyStoredNames();
    if (this.options.sharedBus && bus.openPublisher) {
      // Killed, it cannot say so itself: the broker does, as for Zigbee2MQTT.
      const publisher = bus.openPublisher({
        will: { topic: this.topic(BRIDGE_STATE), payload: OFFLINE, retain: true },
      });
      // The will may have gone out while the connection was away (another simulator may have
      // taken over since: the marker sorts that out).
      publisher.onReconnect(() => void this.publishRetained());
      this.publisher = publisher;
    }
    if (this.options.sharedBus) {
      await this.publishMarker();
      this.heartbeat = setInterval(() => void this.publishMarker(), this.heartbeatMs());
      this.heartbeat.unref();
    }
    this.runUnsubscribers.push(
      await bus.subscribe(this.topic('+/set'), (topic, payload) => this.onSet(topic, payload)),
      await bus.subscribe(this.topic('bridge/request/device/rename'), (_topic, payload) =>
        this.onRename(payload),
      ),
      // Like Zigbee2MQTT: after a broker restart its retained topics are published again (its own
      // connection, when it has one, says when it is back).
      bus.onStatus((status) => {
        if (status.bus === 'online' && !this.publisher) void this.publishRetained();
      }),
    );
    await this.publishRetained();
    for (const device of this.devices) await this.publishState(device);
    this.schedule();
    this.options.log.info(
      { devices: this.devices.length, updatesPerSecond: this.updatesPerSecond },
      'simulator started',
    );
  }

  private publishMarker() {
    const marker: Marker = { instance: this.instance, since: this.since, at: Date.now() };
    return this.send(SIMULATOR_MARKER, JSON.stringify(marker), true);
  }

  /** Stops publishing (the subscriptions of start() stay); its connection says goodbye, no will. */
  private async pause() {
    if (!this.running) return;
    this.running = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    clearInterval(this.heartbeat);
    for (const unsubscribe of this.runUnsubscribers) unsubscribe();
    this.runUnsubscribers = [];
    const publisher = this.publisher;
    this.publisher = undefined;
    await publisher?.close();
  }

  /** Names the registry holds (a rename made through any instance), else an old names file. */
  private async applyStoredNames() {
    let stored: Record<string, string> = {};
    try {
      stored = (await this.options.storedNames?.()) ?? {};
    } catch (error) {
      this.options.log.warn({ err: error }, 'simulator could not read its names from the registry');
    }
    for (const device of this.devices) {
      const name = stored[device.ieee];
      if (!name || name === device.name || this.byName.has(name)) continue;
      this.byName.delete(device.name);
      device.name = name;
      this.byName.set(name, device);
    }
  }

  /** Changes the update rate while running (the benchmark drives ~1000 updates/s this way). */
  setRate(updatesPerSecond: number) {
    this.updatesPerSecond = updatesPerSecond;
    this.schedule();
  }

  async stop() {
    this.stopped = true;
    clearInterval(this.watch);
    for (const unsubscribe of this.unsubscribers) unsubscribe();
    this.unsubscribers = [];
    if (this.running && this.options.sharedBus) {
      // Nobody answers commands now: say so, as Zigbee2MQTT does when it stops, and let another
      // instance's simulator take over (before pause() closes the connection this goes out on).
      await this.send(BRIDGE_STATE, OFFLINE, true);
      await this.send(SIMULATOR_MARKER, '', true);
    }
    await this.pause();
  }

  private schedule() {
    if (this.timer) clearInterval(this.timer);
    const tickMs = this.options.tickMs ?? (this.updatesPerSecond >= 200 ? 10 : 100);
    this.timer = setInterval(() => this.tick(tickMs), tickMs);
    this.timer.unref();
  }

  private tick(tickMs: number) {
    const now = Date.now();
    this.budget += (this.updatesPerSecond * tickMs) / 1000;
    let count = Math.floor(this.budget);
    this.budget -= count;
    for (let tries = 0; count > 0 && tries < this.devices.length; tries++) {
      const device = this.devices[this.cursor]!;
      this.cursor = (this.cursor + 1) % this.devices.length;
      if (device.offlineUntil > now) continue;
      count--;
      evolve(device.state, this.random);
      this.pickAction(device);
      void this.publishState(device);
    }
    this.flipAvailability(now, tickMs);
  }

  private pickAction(device: VirtualDevice) {
    const action = flatten(device.exposes).find((e) => e.property === 'action' && e.type === 'enum');
    if (action?.type !== 'enum') return;
    if (this.random() < 0.3)
      device.state.action = action.values[Math.floor(this.random() * action.values.length)];
    else delete device.state.action;
  }

  private flipAvailability(now: number, tickMs: number) {
    for (const device of this.offline) {
      if (device.offlineUntil <= now) {
        device.offlineUntil = 0;
        this.offline.delete(device);
        void this.publishAvailability(device, true);
      }
    }
    const rate = this.options.availabilityFlipsPerSecond ?? 1 / 45;
    if (this.random() >= (rate * tickMs) / 1000) return;
    const device = this.devices[Math.floor(this.random() * this.devices.length)];
    if (device === undefined || device.offlineUntil > 0) return;
    device.offlineUntil = now + 10_000 + this.random() * 30_000;
    this.offline.add(device);
    void this.publishAvailability(device, false);
  }

  /** bridge/state, bridge/devices and every device's availability, all retained. */
  private async publishRetained() {
    await this.send(BRIDGE_STATE, JSON.stringify({ state: 'online' }), true);
    await this.publishDeviceList();
    for (const device of this.devices) await this.publishAvailability(device, device.offlineUntil === 0);
  }

  private publishAvailability(device: VirtualDevice, online: boolean) {
    const state = online ? 'online' : 'offline';
    return this.send(`${device.name}/availability`, JSON.stringify({ state }), true);
  }

  private publishState(device: VirtualDevice) {
    return this.send(
      device.name,
      JSON.stringify({ ...device.state, last_seen: new Date().toISOString() }),
      false,
    );
  }

  private async send(suffix: string, payload: string, retain: boolean) {
    try {
      await (this.publisher ?? this.options.bus).publish(this.topic(suffix), payload, { retain });
    } catch {
      // The bus is reconnecting; the next tick publishes again.
    }
  }

  private publishDeviceList() {
    const coordinator: BridgeDevice = {
      ieee_address: '0x00124b0000000000',
      friendly_name: 'Coordinator',
      type: 'Coordinator',
      network_address: 0,
      supported: true,
      disabled: false,
      interview_completed: true,
      interviewing: false,
      definition: null,
    };
    const list: BridgeDevice[] = [
      coordinator,
      ...this.devices.map((device, index) => ({
        ieee_address: device.ieee,
        friendly_name: device.name,
        type: device.template.type,
        network_address: index + 1,
        supported: true,
        disabled: false,
        description: null,
        manufacturer: device.template.vendor,
        model_id: device.template.model,
        power_source: device.template.type === 'Router' ? 'Mains (single phase)' : 'Battery',
        software_build_id: `${1 + (index % 3)}.${index % 10}.${(index * 7) % 100}`,
        date_code: '20240115',
        interview_completed: true,
        interviewing: false,
        definition: {
          model: device.template.model,
          vendor: device.template.vendor,
          description: device.template.description,
          exposes: device.exposes,
          options: [],
          supports_ota: device.template.type === 'Router',
        },
      })),
    ];
    return this.send('bridge/devices', JSON.stringify(list), true);
  }

  private onSet(topic: string, payload: Buffer) {
    const name = topic.slice(this.options.baseTopic.length + 1, -'/set'.length);
    const device = this.byName.get(name);
    if (!device || device.offlineUntil > Date.now()) return;
    let command: unknown;
    try {
      command = JSON.parse(payload.toString('utf8'));
    } catch {
      return;
    }
    if (!isObject(command)) return;
    const exposes = flatten(device.exposes);
    for (const [key, value] of Object.entries(command)) {
      const expose = exposes.find((e) => e.property === key);
      if (!expose || ((expose.access ?? 0) & 2) === 0) continue;
      this.apply(device, expose, value);
    }
    void this.publishState(device);
  }

  private apply(device: VirtualDevice, expose: Expose, value: unknown) {
    const property = expose.property!;
    const state = device.state;
    switch (expose.type) {
      case 'binary':
        if (expose.value_toggle !== undefined && value === expose.value_toggle)
          state[property] = state[property] === expose.value_on ? expose.value_off : expose.value_on;
        else if (value === expose.value_on || value === expose.value_off) state[property] = value;
        return;
      case 'numeric': {
        if (typeof value !== 'number' || !Number.isFinite(value)) return;
        state[property] = Math.min(expose.value_max ?? value, Math.max(expose.value_min ?? value, value));
        if (property === 'brightness' && 'state' in state) state.state = value > 0 ? 'ON' : 'OFF';
        return;
      }
      case 'enum': {
        if (!expose.values.includes(value as string)) return;
        // Effects play once; they are not a state.
        if (property === 'effect') return;
        state[property] = value;
        if (property === 'state' && 'position' in state) {
          if (value === 'OPEN') state.position = 100;
          if (value === 'CLOSE') state.position = 0;
        }
        return;
      }
      case 'composite': {
        const hex = parseColour(value);
        if (!hex) return;
        state.color = { ...hexToXy(hex), hex };
        state.color_mode = 'xy';
        return;
      }
      default:
        return;
    }
  }

  /**
   * A random id kept in DATA_DIR/simulator-id (a fresh one without DATA_DIR): after a crash, the
   * marker it left is its own and does not hold its restart back.
   */
  private installationId(): string {
    if (!this.options.dataDir) return crypto.randomUUID();
    const file = path.join(this.options.dataDir, 'simulator-id');
    try {
      const existing = fs.readFileSync(file, 'utf8').trim();
      if (existing) return existing;
    } catch {
      // Not there yet.
    }
    const id = crypto.randomUUID();
    try {
      fs.mkdirSync(this.options.dataDir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(file, `${id}\n`, { mode: 0o600 });
    } catch (error) {
      this.options.log.warn({ err: error, file }, 'simulator could not keep its id');
    }
    return id;
  }

  /** Renames kept in DATA_DIR; a missing or unreadable file means none. */
  private loadNames(): Record<string, string> {
    if (!this.namesFile) return {};
    try {
      const names: unknown = JSON.parse(fs.readFileSync(this.namesFile, 'utf8'));
      if (!isObject(names)) return {};
      return Object.fromEntries(
        Object.entries(names).filter(([, name]) => typeof name === 'string'),
      ) as Record<string, string>;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        this.options.log.warn(
          { err: error, file: this.namesFile },
          'simulator names unreadable; using defaults',
        );
      return {};
    }
  }

  private onRename(payload: Buffer) {
    let request: unknown;
    try {
      request = JSON.parse(payload.toString('utf8'));
    } catch {
      return;
    }
    if (!isObject(request)) return;
    const { from, to, transaction } = request;
    const respond = (body: Raw) =>
      this.send(
        'bridge/response/device/rename',
        JSON.stringify({ ...body, ...(transaction ? { transaction } : {}) }),
        false,
      );
    const device = typeof from === 'string' ? this.byName.get(from) : undefined;
    if (!device)
      return void respond({ data: {}, status: 'error', error: `Device '${String(from)}' does not exist` });
    if (typeof to !== 'string' || to.trim() === '' || /[#+]/.test(to))
      return void respond({ data: {}, status: 'error', error: `Invalid friendly_name '${String(to)}'` });
    if (this.byName.has(to) && to !== from)
      return void respond({ data: {}, status: 'error', error: `friendly_name '${to}' is already in use` });
    this.byName.delete(device.name);
    void this.send(`${device.name}/availability`, '', true);
    device.name = to;
    this.byName.set(to, device);
    void (async () => {
      await this.publishDeviceList();
      await this.publishAvailability(device, device.offlineUntil === 0);
      await respond({ data: { from, to, homeassistant_rename: false }, status: 'ok' });
      await this.publishState(device);
    })();
  }
}
