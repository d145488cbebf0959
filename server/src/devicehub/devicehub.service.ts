import {
  type Device,
  type DeviceCommandRequest,
  type DeviceRemovedEvent,
  type DeviceState,
  devicehubTopics,
} from '@hearth/contracts';
import type { Logger } from 'pino';
import { z } from 'zod';
import { HttpError } from '../http/errors.js';
import { nowIso } from '../storage/columns.js';
import type { UserRecord } from '../users/index.js';
import type { AdapterEvents, DeviceAdapter, DeviceDescription } from './adapters/adapter.js';
import { DevicehubMessages } from './devicehub.errors.js';
import type { DevicesRepository } from './devicehub.repository.js';
import { deviceRenameCommand, deviceSetCommand } from './devicehub.schemas.js';
import type { EdgeBroker, EdgeCommand } from './edge/edge-broker.js';
import { LogOnce } from './log-once.js';
import type { StateWriter } from './state-writer.js';

export interface DeviceHubServiceOptions {
  repository: DevicesRepository;
  adapter: DeviceAdapter;
  edge: EdgeBroker;
  writer: StateWriter;
  log: Logger;
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

const metadataDiffers = (device: Device, description: DeviceDescription) =>
  METADATA_KEYS.some((key) => JSON.stringify(device[key]) !== JSON.stringify(description[key]));

/**
 * The hub's model of every device: fed by the adapter, kept in the registry, published to
 * browsers through the edge broker; commands and renames go back through the adapter.
 */
export class DeviceHubService implements AdapterEvents {
  private readonly devices = new Map<string, Device>();
  private readonly idByExternal = new Map<string, string>();
  /** State that arrived for a listed device before the registry gave it an id. */
  private readonly earlyState = new Map<
    string,
    { state: DeviceState; lastSeen: string | null; retained: boolean }
  >();
  /** Availability that arrived for a listed device before the registry gave it an id. */
  private readonly earlyAvailability = new Map<string, boolean>();
  /** Devices whose availability the bus has reported (the others go online when they report state). */
  private readonly availabilityKnown = new Set<string>();
  private queue: Promise<void> = Promise.resolve();
  private latestList: DeviceDescription[] | undefined;
  private listRetry: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly once: LogOnce;

  constructor(private readonly options: DeviceHubServiceOptions) {
    this.once = new LogOnce(options.log);
  }

  /** Loads the registry: the last known state is served, every device offline until the bus says otherwise. */
  async load() {
    for (const device of await this.options.repository.all()) this.track(device);
    for (const device of this.devices.values()) this.publishState(device);
  }

  list(): Device[] {
    return [...this.devices.values()];
  }

  get(id: string): Device {
    const device = this.devices.get(id);
    if (!device) throw new HttpError(404, DevicehubMessages.deviceNotFound);
    return device;
  }

  /** Resolves once every list and removal received so far is in the registry. */
  settled(): Promise<void> {
    return this.queue;
  }

  async command(id: string, request: DeviceCommandRequest): Promise<{ device_id: string; status: 'sent' }> {
    const device = this.get(id);
    await this.options.adapter.command(device, request);
    return { device_id: device.id, status: 'sent' };
  }

  async rename(id: string, name: string): Promise<Device> {
    const device = this.get(id);
    const trimmed = name.trim();
    if (trimmed === '') throw new HttpError(400, DevicehubMessages.emptyName);
    if (trimmed === device.name) return device;
    const renamed = await this.options.adapter.rename(device, trimmed);
    const now = nowIso();
    await this.options.repository.rename(device.id, renamed, now);
    device.name = renamed;
    device.updated_at = now;
    this.publishUpsert(device);
    return device;
  }

  /** A command a browser published on the edge broker (no reply channel: problems are logged). */
  async handleEdgeCommand(command: EdgeCommand, user: UserRecord) {
    try {
      if (command.kind === 'device.set') {
        const { device_id, state } = deviceSetCommand.parse(command.payload);
        await this.command(device_id, { state });
      } else {
        const { device_id, name } = deviceRenameCommand.parse(command.payload);
        await this.rename(device_id, name);
      }
    } catch (error) {
      const message =
        error instanceof z.ZodError
          ? (error.issues[0]?.message ?? 'invalid')
          : error instanceof Error
            ? error.message
            : String(error);
      this.options.log.info(
        { kind: command.kind, user: user.id, error: message },
        'device command from browser refused',
      );
    }
  }

  // ── adapter events ──────────────────────────────────────────────────────────────────────────

  devicesListed(listed: DeviceDescription[]) {
    this.latestList = listed;
    if (this.listRetry) clearTimeout(this.listRetry);
    this.listRetry = undefined;
    this.enqueue(async () => {
      try {
        await this.applyList(listed);
      } catch (error) {
        // The database may be away for a moment: try the newest list again rather than stay
        // empty until Zigbee2MQTT happens to publish its list again.
        if (this.latestList === listed && !this.closed) {
          this.listRetry = setTimeout(() => this.devicesListed(listed), LIST_RETRY_MS);
          this.listRetry.unref();
        }
        throw error;
      }
    });
  }

  /** Stops retrying; the queue settles with what it has. */
  stop() {
    this.closed = true;
    if (this.listRetry) clearTimeout(this.listRetry);
  }

  deviceRemoved(externalId: string) {
    this.enqueue(async () => {
      const id = this.idByExternal.get(externalId);
      if (id) await this.remove(id);
    });
  }

  stateReported(externalId: string, state: DeviceState, lastSeen: string | null, retained: boolean) {
    const id = this.idByExternal.get(externalId);
    const device = id ? this.devices.get(id) : undefined;
    if (!device) {
      this.earlyState.set(externalId, { state, lastSeen, retained });
      return;
    }
    device.state = { ...device.state, ...state };
    if (lastSeen) device.last_seen = lastSeen;
    this.options.writer.mark({ id: device.id, state: device.state, lastSeen: device.last_seen });
    this.publishState(device);
    // Without availability reports (disabled in Zigbee2MQTT), a fresh message means it is there.
    if (!retained && !device.online && !this.availabilityKnown.has(device.id)) {
      device.online = true;
      this.publishUpsert(device);
    }
  }

  availabilityChanged(externalId: string, online: boolean) {
    const id = this.idByExternal.get(externalId);
    const device = id ? this.devices.get(id) : undefined;
    if (!device) {
      this.earlyAvailability.set(externalId, online);
      return;
    }
    this.availabilityKnown.add(device.id);
    if (device.online === online) return;
    device.online = online;
    this.publishUpsert(device);
  }

  // ── internals ───────────────────────────────────────────────────────────────────────────────

  private enqueue(task: () => Promise<void>) {
    this.queue = this.queue.then(task).catch((error) => {
      this.options.log.error({ err: error }, 'device registry update failed');
    });
  }

  private track(device: Device) {
    this.devices.set(device.id, device);
    this.idByExternal.set(device.external_id, device.id);
  }

  private async applyList(listed: DeviceDescription[]) {
    const protocol = this.options.adapter.protocol;
    const changed = listed.filter((d) => {
      const id = this.idByExternal.get(d.external_id);
      const known = id ? this.devices.get(id) : undefined;
      return !known || metadataDiffers(known, d);
    });
    const saved = await this.options.repository.upsertMany(changed, nowIso());
    const descriptions = new Map(changed.map((d) => [d.external_id, d]));
    for (const row of saved) {
      const known = this.devices.get(row.id);
      const description = descriptions.get(row.external_id)!;
      // Keep what lives only in memory (online, the newest state) across a metadata update, and
      // the adapter's shared capability objects rather than fresh copies parsed from the row.
      const device: Device = {
        ...row,
        capabilities: description.capabilities,
        inputs: description.inputs,
        ...(known ? { online: known.online, state: known.state, last_seen: known.last_seen } : {}),
      };
      this.track(device);
      const early = this.earlyState.get(device.external_id);
      const online = this.earlyAvailability.get(device.external_id);
      this.earlyState.delete(device.external_id);
      this.earlyAvailability.delete(device.external_id);
      this.publishUpsert(device);
      if (online !== undefined) this.availabilityChanged(device.external_id, online);
      if (early) this.stateReported(device.external_id, early.state, early.lastSeen, early.retained);
    }
    const present = new Set(listed.map((d) => d.external_id));
    for (const device of [...this.devices.values()]) {
      if (device.protocol === protocol && !present.has(device.external_id)) await this.remove(device.id);
    }
  }

  private async remove(id: string) {
    const device = this.devices.get(id);
    if (!device) return;
    await this.options.repository.remove(id);
    this.options.writer.forget(id);
    this.devices.delete(id);
    this.idByExternal.delete(device.external_id);
    this.availabilityKnown.delete(id);
    const event: DeviceRemovedEvent = { id, external_id: device.external_id };
    this.publish(devicehubTopics.removed, JSON.stringify(event), false);
    // An empty retained message clears the device's retained state for late subscribers.
    this.publish(devicehubTopics.device(id), '', true);
    this.options.log.info({ id, external_id: device.external_id }, 'device removed');
  }

  private publishUpsert(device: Device) {
    this.publish(devicehubTopics.upsert, JSON.stringify(device), false);
  }

  private publishState(device: Device) {
    this.publish(devicehubTopics.device(device.id), JSON.stringify(device.state), true);
  }

  private publish(topic: string, payload: string, retain: boolean) {
    let sent: Promise<void>;
    try {
      sent = this.options.edge.publish(topic, payload, { retain });
    } catch (error) {
      sent = Promise.reject(error);
    }
    sent.catch((error) => {
      this.once.warn(`edge:${topic}`, { err: error, topic }, 'publishing to browsers failed');
    });
  }
}
