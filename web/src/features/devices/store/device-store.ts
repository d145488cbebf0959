import type { DevicehubStatus } from '@hearth/contracts';
import {
  compareDevices,
  type DeviceRecord,
  deviceStats,
  isIgnoredId,
  isListed,
  rawExternalId,
  rawId,
  rawKey,
  toDevice,
  withState,
} from '../model/device.model.js';
import type { DeviceStats, DeviceView, Json } from '../model/device.types.js';
import { deviceFacets, FACETS, type Facet } from '../model/filters.js';

/** What docs/rooms.md's assignment of a device is made of: its room and its room suggestion. */
const assignmentOf = (raw: Json) => `${String(raw.room_id ?? '')}\u0000${String(raw.suggested_room ?? '')}`;

/** docs/devicehub.md#connection-status plus the page's loading flag, its one error line and the device bus behind the hub. */
export interface HubStatus {
  loading: boolean;
  /** Only the first screen's devices (`loadFirst`) are known: the whole list has not answered yet. */
  partial: boolean;
  metadata: { connected: boolean; source: string | null };
  stream: { connected: boolean };
  error: string | null;
  /** From the hub's retained `events/hub.status`; null until it has said. */
  bus: DevicehubStatus | null;
}

type Listener = () => void;
export type Scheduler = (flush: () => void) => void;

const EMPTY_STATS: DeviceStats = { total: 0, online: 0, withState: 0, sensors: 0 };
const INITIAL_STATUS: HubStatus = {
  loading: true,
  partial: false,
  metadata: { connected: false, source: null },
  stream: { connected: false },
  error: null,
  bus: null,
};

const frameScheduler: Scheduler = (flush) => {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(flush);
  else setTimeout(flush, 16);
};

/**
 * The device list of docs/screens.md#device-list-and-stream. Messages are applied to plain records at once, but derived
 * devices, the sorted listing and the stats are rebuilt at most once per animation frame, and
 * only the devices that changed notify their own subscribers — so one state message re-renders
 * one tile, whatever the number of devices.
 */
export class DeviceStore {
  private records = new Map<string, DeviceRecord>();
  private devices = new Map<string, DeviceView>();
  private dirty = new Set<string>();
  private listDirty = false;
  private scheduled = false;
  private ids: string[] = [];
  private stats: DeviceStats = EMPTY_STATS;
  /** Per facet (room, type, make, online, battery): bumped when a device's changes (the page's filters look at them). */
  private facetVersions = Object.fromEntries(FACETS.map((facet) => [facet, 0])) as Record<Facet, number>;
  private status: HubStatus = INITIAL_STATUS;
  private pending = new Set<string>();
  /** Devices whose last command their state did not confirm in time (docs/screens.md#device-tile). */
  private silent = new Set<string>();
  /** A command the device itself refused or never answered (a Shelly RPC's 502/504), until the next command. */
  private failures = new Map<string, string>();
  /** When each event entity of a device last fired, as far as this page heard it. */
  private eventTimes = new Map<string, Record<string, number>>();
  private stateListeners = new Set<(key: string, state: Json) => void>();
  private deviceListeners = new Map<string, Set<Listener>>();
  private listeners = new Set<Listener>();
  private assignmentVersion = 0;
  private assignmentDirty = false;

  constructor(
    private readonly schedule: Scheduler = frameScheduler,
    private readonly now: () => number = Date.now,
  ) {}

  // --- reading (stable snapshots for useSyncExternalStore) ---
  getIds = () => this.ids;
  getStats = () => this.stats;
  /** A number that changes whenever one of `facets` changed on some device. */
  getFacetsVersion = (facets: readonly Facet[] = FACETS) =>
    facets.reduce((sum, facet) => sum + this.facetVersions[facet], 0);
  getStatus = () => this.status;
  /** Controls are greyed out while the device bus or bridge is offline (commands would answer 503). */
  isBusOffline = () => this.status.bus?.bus === 'offline' || this.status.bus?.bridge === 'offline';
  getDevice = (key: string): DeviceView | undefined => this.devices.get(key);
  isPending = (key: string) => this.pending.has(key);
  /** Its last command was not confirmed by its state in time; until its next state message. */
  isNotResponding = (key: string) => this.silent.has(key);
  /** Why the device's last command failed on the device's side (docs/screens.md#devices-of-other-sources), else null. */
  getFailure = (key: string) => this.failures.get(key) ?? null;
  /** When the page last heard an event entity of the device fire (epoch ms), else null. */
  getEventTime = (key: string, property: string) => this.eventTimes.get(key)?.[property] ?? null;
  /** Changes whenever a device's room or room suggestion changes (docs/rooms.md#assignment), or one comes or goes. */
  getAssignmentVersion = () => this.assignmentVersion;

  subscribe = (listener: Listener) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  subscribeDevice(key: string, listener: Listener) {
    const set = this.deviceListeners.get(key) ?? new Set<Listener>();
    this.deviceListeners.set(key, set);
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.deviceListeners.delete(key);
    };
  }

  // --- writing ---
  /** docs/api.md#devices: the REST list. Each device is merged in and marked as having metadata. */
  loadList(list: Json[]) {
    const at = this.now();
    for (const raw of list) this.mergeMetadata(raw, at);
    this.setStatus({ loading: false, partial: false, metadata: { connected: true, source: 'rest' } });
  }

  /**
   * The first screen's devices (`?first=N`), ahead of the whole list: merged in like the list's,
   * while the list itself is still loading (no source yet). `partial: false` when they are all
   * there is (fewer than asked for).
   */
  loadFirst(list: Json[], { partial = true }: { partial?: boolean } = {}) {
    const at = this.now();
    for (const raw of list) this.mergeMetadata(raw, at);
    if (partial && !this.status.metadata.connected) this.setStatus({ partial: true });
  }

  /** docs/screens.md#device-list-and-stream upsert: merged into the stored device, which now has metadata. */
  upsert(raw: Json) {
    this.mergeMetadata(raw, this.now());
  }

  /** docs/screens.md#device-list-and-stream removed: by id, or else by external id. */
  remove(payload: Json) {
    const id = rawId(payload);
    let key: string | undefined = id && this.records.has(id) ? id : undefined;
    const external = rawExternalId(payload);
    if (!key && external) {
      key = [...this.records.values()].find((record) => rawExternalId(record.raw) === external)?.key;
    }
    if (key) this.delete(key);
  }

  /** docs/screens.md#device-list-and-stream state message: replaces the state, stamps it and marks the device online. */
  applyState(id: string, state: Json) {
    if (isIgnoredId(id)) return this.purgeIgnored();
    const record = this.records.get(id) ?? {
      key: id,
      raw: { id },
      hasMetadata: false,
      metadataUpdatedAt: null,
      stateUpdatedAt: null,
    };
    this.noteEvents(record, state);
    record.raw = { ...record.raw, state, online: true };
    record.stateUpdatedAt = this.now();
    this.records.set(id, record);
    this.silent.delete(id);
    this.markDirty(id);
    for (const listener of this.stateListeners) listener(id, state);
  }

  /** Hears every state message as it arrives (the command watch, docs/screens.md#device-tile). */
  listenState(listener: (key: string, state: Json) => void) {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  setNotResponding(key: string, silent: boolean) {
    if (silent === this.silent.has(key)) return;
    if (silent) this.silent.add(key);
    else this.silent.delete(key);
    this.notifyDevice(key);
  }

  setFailure(key: string, message: string | null) {
    if ((this.failures.get(key) ?? null) === message) return;
    if (message === null) this.failures.delete(key);
    else this.failures.set(key, message);
    this.notifyDevice(key);
  }

  setStatus(change: Partial<HubStatus>) {
    this.status = { ...this.status, ...change };
    this.emit();
  }

  /** Clears the error only when it is still the given one (a later error wins). */
  clearError(message: string) {
    if (this.status.error === message) this.setStatus({ error: null });
  }

  setPending(key: string, pending: boolean) {
    if (pending === this.pending.has(key)) return;
    if (pending) this.pending.add(key);
    else this.pending.delete(key);
    this.notifyDevice(key);
  }

  /** docs/screens.md#device-list-and-stream: losing access clears everything. */
  clear() {
    const keys = [...this.devices.keys()];
    this.records.clear();
    this.devices.clear();
    this.dirty.clear();
    this.pending.clear();
    this.silent.clear();
    this.failures.clear();
    this.eventTimes.clear();
    this.ids = [];
    this.stats = EMPTY_STATS;
    this.status = INITIAL_STATUS;
    for (const key of keys) this.notifyDevice(key);
    this.emit();
  }

  /** Applies everything queued since the last frame (tests call it directly). */
  flush = () => {
    this.scheduled = false;
    if (this.dirty.size === 0 && !this.listDirty) return;
    const changed = [...this.dirty];
    this.dirty.clear();
    const changedFacets = new Set<Facet>();
    // The stats are counted again only when a device's counted parts changed (not on every state message).
    let statsDirty = this.listDirty;
    for (const key of changed) {
      const before = this.devices.get(key);
      const record = this.records.get(key);
      if (!record) {
        if (before) this.listDirty = true;
        this.devices.delete(key);
        continue;
      }
      const device = before && record.stateOnly ? withState(before, record) : toDevice(record);
      record.stateOnly = true;
      this.devices.set(key, device);
      if (before) {
        const [was, is] = [deviceFacets(before), deviceFacets(device)];
        for (const facet of FACETS) if (was[facet] !== is[facet]) changedFacets.add(facet);
      }
      if (!before || before.displayName !== device.displayName || isListed(before) !== isListed(device)) {
        this.listDirty = true;
      }
      if (
        !before ||
        before.online !== device.online ||
        before.stateHasValues !== device.stateHasValues ||
        before.capabilities !== device.capabilities
      ) {
        statsDirty = true;
      }
    }
    if (this.listDirty) statsDirty = true;
    let globalChange = false;
    for (const facet of changedFacets) {
      this.facetVersions[facet]++;
      globalChange = true;
    }
    if (this.listDirty) {
      this.listDirty = false;
      const listed = [...this.devices.values()].filter(isListed).sort(compareDevices);
      const ids = listed.map((device) => device.key);
      if (ids.length !== this.ids.length || ids.some((id, index) => id !== this.ids[index])) {
        this.ids = ids;
        globalChange = true;
      }
    }
    if (statsDirty) {
      const stats = deviceStats(this.ids.map((id) => this.devices.get(id) as DeviceView));
      if (Object.entries(stats).some(([key, value]) => this.stats[key as keyof DeviceStats] !== value)) {
        this.stats = stats;
        globalChange = true;
      }
    }
    if (this.status.loading && this.ids.length > 0) {
      this.status = { ...this.status, loading: false };
      globalChange = true;
    }
    if (this.assignmentDirty) {
      this.assignmentDirty = false;
      this.assignmentVersion++;
      globalChange = true;
    }
    for (const key of changed) this.notifyDevice(key);
    if (globalChange) this.emit();
  };

  private mergeMetadata(raw: Json, at: number) {
    const key = rawKey(raw);
    if (!key) return;
    if (isIgnoredId(key)) return this.purgeIgnored();
    const record = this.records.get(key);
    if (record) {
      const was = assignmentOf(record.raw);
      record.raw = { ...record.raw, ...raw };
      record.stateOnly = false;
      if (assignmentOf(record.raw) !== was) this.assignmentDirty = true;
      record.hasMetadata = true;
      record.metadataUpdatedAt = at;
    } else {
      this.records.set(key, {
        key,
        raw: { ...raw },
        hasMetadata: true,
        metadataUpdatedAt: at,
        stateUpdatedAt: null,
      });
      this.assignmentDirty = true;
    }
    this.markDirty(key);
  }

  private purgeIgnored() {
    for (const key of this.records.keys()) if (isIgnoredId(key)) this.delete(key);
  }

  private delete(key: string) {
    if (this.records.has(key)) this.assignmentDirty = true;
    this.records.delete(key);
    this.pending.delete(key);
    this.silent.delete(key);
    this.failures.delete(key);
    this.eventTimes.delete(key);
    this.markDirty(key);
  }

  /**
   * docs/screens.md#devices-of-other-sources: an event entity fired when a state message brings
   * its value changed, or brings the state unchanged (the hub reports an event even when it is the
   * same as the last; a fresh report of an unchanged reading is taken for one too). The first
   * message the page gets for a device (the retained replay) stamps nothing.
   */
  private noteEvents(record: DeviceRecord, state: Json) {
    const capabilities = record.raw.capabilities;
    if (!Array.isArray(capabilities) || record.stateUpdatedAt === null) return;
    const events = capabilities.filter(
      (c): c is { property: string } =>
        typeof c === 'object' && c !== null && c.type === 'event' && typeof c.property === 'string',
    );
    if (events.length === 0) return;
    const before = (record.raw.state ?? {}) as Json;
    const same = JSON.stringify(before) === JSON.stringify(state);
    const times = { ...this.eventTimes.get(record.key) };
    for (const { property } of events) {
      if (state[property] !== undefined && (same || state[property] !== before[property]))
        times[property] = this.now();
    }
    this.eventTimes.set(record.key, times);
  }

  private markDirty(key: string) {
    this.dirty.add(key);
    if (!this.scheduled) {
      this.scheduled = true;
      this.schedule(this.flush);
    }
  }

  private notifyDevice(key: string) {
    for (const listener of this.deviceListeners.get(key) ?? []) listener();
  }

  private emit() {
    for (const listener of this.listeners) listener();
  }
}
