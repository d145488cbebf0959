import {
  type AlertSettings,
  DEFAULT_ALERT_SETTINGS,
  type Device,
  type DevicehubStatus,
  type DeviceState,
  type NotificationKind,
} from '@hearth/contracts';
import type { Logger } from 'pino';
import type { DeviceListener } from '../devicehub/index.js';
import type { Notifier } from '../notifications/index.js';
import type { Clock } from '../shared/clock.js';
import { yieldToEventLoop } from '../storage/batches.js';
import { nowIso } from '../storage/columns.js';
import { noticeOf, windowOf } from './alerts.notice.js';
import { type AlertsRepository, type Incident, type IncidentDetail, openKey } from './alerts.repository.js';
import { batteryReading, batteryWorse, concernsRules, safetyTripped } from './alerts.rules.js';

/** What alerts read of the device hub (through its public interface, docs/alerts.md#rules). */
export interface AlertFeed {
  find(id: string): Device | undefined;
  /** Every listed device. */
  devices(): Iterable<Device>;
  /** Whether the device's availability has been heard since this instance started. */
  reportsAvailability(id: string): boolean;
  hubStatus(): DevicehubStatus;
}

export interface AlertEngineDeps {
  repository: AlertsRepository;
  feed: AlertFeed;
  notifier: Notifier;
  clock: Clock;
  /** HOUSEHOLD_TIME_ZONE: the times incidents name. */
  timeZone: string;
  log: Logger;
}

/** The hub rule's patience: the bus or bridge away longer than this. */
const HUB_AFTER_MS = 60_000;
/** How often what other instances may have changed (incidents, mutes, settings) is read again. */
const REFRESH_MS = 5000;
/** How often devices offline since before the start are looked for. */
const RECONCILE_MS = 30_000;

const SEVERITY: Record<NotificationKind, Incident['severity']> = {
  offline: 'warning',
  battery: 'info',
  safety: 'critical',
  hub: 'warning',
  automation: 'info',
};

/**
 * docs/alerts.md#rules: watches device updates and the hub's status, and opens, worsens, resolves
 * and repeats incidents. Every such change is claimed in the database first, so of several
 * instances seeing the same message one tells people, and a restart picks up where it was.
 * Device updates are evaluated one device at a time, away from the stream's path; a device that
 * reports again before its turn is evaluated once, as it is by then.
 */
export class AlertEngine implements DeviceListener {
  private settings: AlertSettings = { ...DEFAULT_ALERT_SETTINGS };
  private mutes = new Set<string>();
  /** Open incidents by `rule:subject`. */
  private open = new Map<string, Incident>();
  /** Conditions waiting for their time, by `rule:subject`: since when (ms). */
  private conditions = new Map<string, number>();
  /** Devices waiting to be evaluated, the newest view of each. */
  private readonly waiting = new Map<string, Device>();
  private lane: Promise<void> = Promise.resolve();
  private draining = false;
  private lastRefresh = 0;
  private lastReconcile = 0;
  private closed = false;

  constructor(private readonly deps: AlertEngineDeps) {}

  /** Reads what is stored: settings, mutes, open incidents, waiting conditions. */
  async load(): Promise<void> {
    await this.refresh();
    const conditions = await this.deps.repository.conditions();
    this.conditions = new Map(
      conditions.map((row) => [openKey(row.rule, row.subject), Date.parse(row.since)]),
    );
  }

  current(): AlertSettings {
    return this.settings;
  }

  isMuted(deviceId: string): boolean {
    return this.mutes.has(deviceId);
  }

  // ── the hub's listener (synchronous, on the stream's path: note and return) ────────────────────

  stateReported(device: Device, state: DeviceState): void {
    if (concernsRules(state)) this.schedule(device);
  }

  onlineChanged(device: Device): void {
    this.schedule(device);
  }

  deviceJoined(device: Device): void {
    this.schedule(device);
  }

  /** Looks at a device again (a mute lifted, a setting changed). */
  schedule(device: Device) {
    if (this.closed) return;
    this.waiting.set(device.id, device);
    if (this.draining) return;
    this.draining = true;
    this.run(async () => {
      while (this.waiting.size > 0 && !this.closed) {
        // A turn of the event loop before each device: better-sqlite3 answers synchronously, so
        // without it a burst of incidents would run as one task and hold the stream's messages back.
        await yieldToEventLoop();
        // Stopped meanwhile (stop() empties the queue): nothing more to look at.
        const first = this.waiting.entries().next();
        if (first.done || this.closed) break;
        const [id, next] = first.value;
        this.waiting.delete(id);
        await this.evaluate(next).catch((error) =>
          this.deps.log.warn({ err: error, device: id }, 'evaluating alert rules failed'),
        );
      }
      this.draining = false;
    });
  }

  /** Runs work one piece at a time, after what came before. */
  private run(task: () => Promise<void>): Promise<void> {
    this.lane = this.lane.then(task, task).catch((error) => {
      this.deps.log.warn({ err: error }, 'alert work failed');
    });
    return this.lane;
  }

  /** Resolves once the work queued so far is done (tests, close). */
  settled(): Promise<void> {
    return this.lane;
  }

  stop() {
    this.closed = true;
    this.waiting.clear();
  }

  // ── settings and mutes ────────────────────────────────────────────────────────────────────────

  async changeSettings(settings: AlertSettings): Promise<void> {
    await this.deps.repository.setSettings(settings, nowIso(this.deps.clock.now()));
    this.settings = settings;
    await this.run(() => this.applySettings());
    for (const device of this.deps.feed.devices()) this.schedule(device);
  }

  async setMuted(deviceId: string, muted: boolean, by: string): Promise<void> {
    await this.deps.repository.setMuted(deviceId, muted, by, nowIso(this.deps.clock.now()));
    if (muted) {
      this.mutes.add(deviceId);
      await this.run(() => this.quieten(deviceId));
    } else {
      this.mutes.delete(deviceId);
      const device = this.deps.feed.find(deviceId);
      if (device) this.schedule(device);
    }
  }

  /** docs/alerts.md#acknowledging: the repeats of the incident stop. */
  async acknowledge(incidentId: string, by: string, at: string): Promise<void> {
    await this.deps.repository.acknowledge(incidentId, by, at);
    for (const incident of this.open.values()) {
      if (incident.id === incidentId) {
        incident.acknowledged_at = at;
        incident.next_repeat_at = null;
      }
    }
  }

  // ── time ──────────────────────────────────────────────────────────────────────────────────────

  /** One beat: conditions whose time has come, the hub, repeats; now and then a re-read. */
  tick(): Promise<void> {
    return this.run(async () => {
      const now = this.deps.clock.now();
      if (now - this.lastRefresh >= REFRESH_MS || now < this.lastRefresh) await this.refresh();
      if (now - this.lastReconcile >= RECONCILE_MS || now < this.lastReconcile) {
        this.lastReconcile = now;
        await this.reconcile(now);
      }
      await this.applySettings();
      await this.offlineDue(now);
      await this.hub(now);
      await this.repeats(now);
    });
  }

  private async refresh() {
    const { repository } = this.deps;
    const [settings, mutes, open] = await Promise.all([
      repository.settings(),
      repository.mutes(),
      repository.open(),
    ]);
    this.settings = settings;
    this.mutes = new Set(mutes);
    this.open = new Map(open.map((incident) => [openKey(incident.rule, incident.subject), incident]));
    this.lastRefresh = this.deps.clock.now();
  }

  /** A rule turned off: its open incidents resolve without word, its conditions go. */
  private async applySettings() {
    const off = (rule: NotificationKind) =>
      (rule === 'offline' && this.settings.offline_after_minutes === null) ||
      (rule === 'battery' && this.settings.battery_below === null) ||
      (rule === 'safety' && !this.settings.safety) ||
      (rule === 'hub' && !this.settings.hub);
    for (const incident of [...this.open.values()])
      if (off(incident.rule)) await this.resolve(incident, false);
    for (const key of [...this.conditions.keys()]) {
      const [rule, subject] = splitKey(key);
      if (off(rule as NotificationKind)) await this.dropCondition(rule, subject);
    }
  }

  /** Devices offline before this instance heard of it (a restart): their wait starts at their last sighting. */
  private async reconcile(now: number) {
    if (this.settings.offline_after_minutes === null) return;
    for (const device of this.deps.feed.devices()) {
      if (device.online || this.mutes.has(device.id) || !this.deps.feed.reportsAvailability(device.id))
        continue;
      const key = openKey('offline', device.id);
      if (this.conditions.has(key) || this.open.has(key)) continue;
      const seen = device.last_seen === null ? now : Math.min(now, Date.parse(device.last_seen));
      await this.noteCondition('offline', device.id, Number.isFinite(seen) ? seen : now);
    }
  }

  private async offlineDue(now: number) {
    const after = this.settings.offline_after_minutes;
    if (after === null) return;
    for (const [key, since] of [...this.conditions]) {
      const [rule, id] = splitKey(key);
      if (rule !== 'offline' || since + after * 60_000 > now || this.open.has(key)) continue;
      const device = this.deps.feed.find(id);
      if (!device) {
        await this.dropCondition(rule, id);
        continue;
      }
      // Not heard since the start yet: wait for the bus to say.
      if (device.online || !this.deps.feed.reportsAvailability(id) || this.mutes.has(id)) continue;
      await this.raise('offline', id, device, { name: displayName(device), since: nowIso(since) });
    }
  }

  /** The hub rule (admins only): the bus, or Zigbee2MQTT's bridge, away longer than a minute. */
  private async hub(now: number) {
    if (!this.settings.hub) return;
    const status = this.deps.feed.hubStatus();
    const parts: [string, boolean][] = [
      ['bus', status.bus === 'offline'],
      ['bridge', status.bridge === 'offline'],
    ];
    for (const [part, away] of parts) {
      const key = openKey('hub', part);
      if (!away) {
        if (this.conditions.has(key)) await this.dropCondition('hub', part);
        const open = this.open.get(key);
        if (open) await this.resolve(open, true);
        continue;
      }
      const since = this.conditions.get(key) ?? (await this.noteCondition('hub', part, now));
      if (now - since >= HUB_AFTER_MS && !this.open.has(key))
        await this.raise('hub', part, undefined, { name: part, since: nowIso(since) });
    }
  }

  private async repeats(now: number) {
    const { repository } = this.deps;
    const due = await repository.repeatsDue(nowIso(now));
    for (const incident of due) {
      const next: Incident = {
        ...incident,
        version: incident.version + 1,
        updated_at: nowIso(now),
        next_repeat_at: nowIso(now + this.settings.repeat_critical_minutes * 60_000),
      };
      if (!(await repository.claimChange(next, incident.version))) continue;
      this.open.set(openKey(next.rule, next.subject), next);
      await this.tell(next, true);
    }
  }

  // ── a device's rules ──────────────────────────────────────────────────────────────────────────

  private async evaluate(device: Device) {
    const id = device.id;
    if (this.mutes.has(id)) return this.quieten(id);
    const name = displayName(device);
    const { settings } = this;
    const now = this.deps.clock.now();

    if (settings.offline_after_minutes !== null && this.deps.feed.reportsAvailability(id)) {
      if (device.online) await this.clear('offline', id);
      else {
        const since =
          this.conditions.get(openKey('offline', id)) ?? (await this.noteCondition('offline', id, now));
        if (since + settings.offline_after_minutes * 60_000 <= now)
          await this.raise('offline', id, device, { name, since: nowIso(since) });
      }
    }

    const batteryOpen = this.open.get(openKey('battery', id));
    const battery = batteryReading(device.state, settings.battery_below, batteryOpen !== undefined);
    if (battery?.low) {
      const detail: IncidentDetail = {
        name,
        ...(battery.level !== undefined ? { battery: battery.level } : {}),
      };
      if (battery.flagged) detail.low = true;
      await this.raise('battery', id, device, detail, (told) => batteryWorse(told.battery, battery.level));
    } else if (battery && batteryOpen) {
      await this.resolve(
        {
          ...batteryOpen,
          detail: {
            ...batteryOpen.detail,
            ...(battery.level !== undefined ? { battery: battery.level } : {}),
          },
        },
        true,
      );
    }

    if (settings.safety) {
      const tripped = safetyTripped(device.state);
      if (tripped.length > 0) {
        const open = this.open.get(openKey('safety', id));
        await this.raise(
          'safety',
          id,
          device,
          { name, tripped, since: open?.detail.since ?? nowIso(now) },
          (told) => tripped.some((alarm) => !(told.tripped ?? []).includes(alarm)),
        );
      } else await this.clear('safety', id);
    }
  }

  /** A muted device: its open incidents resolve without word, its conditions go. */
  private async quieten(deviceId: string) {
    for (const incident of [...this.open.values()])
      if (incident.device_id === deviceId) await this.resolve(incident, false);
    for (const rule of ['offline'])
      if (this.conditions.has(openKey(rule, deviceId))) await this.dropCondition(rule, deviceId);
  }

  /** The condition of `rule` on `subject` is over: its wait ends, its incident resolves. */
  private async clear(rule: NotificationKind, subject: string) {
    if (this.conditions.has(openKey(rule, subject))) await this.dropCondition(rule, subject);
    const open = this.open.get(openKey(rule, subject));
    if (open) await this.resolve(open, true);
  }

  /**
   * The condition holds: opens the incident (or reopens one resolved within its window: a flapping
   * device keeps one incident), or, when `worse` says so, tells people it got worse.
   */
  private async raise(
    rule: NotificationKind,
    subject: string,
    device: Device | undefined,
    detail: IncidentDetail,
    worse?: (told: IncidentDetail) => boolean,
  ) {
    const { repository, clock } = this.deps;
    const key = openKey(rule, subject);
    const now = clock.now();
    const at = nowIso(now);
    const open = this.open.get(key);
    if (open) {
      if (!worse?.(open.detail)) return;
      const next: Incident = { ...open, detail, version: open.version + 1, updated_at: at };
      if (await repository.claimChange(next, open.version)) {
        this.open.set(key, next);
        await this.tell(next, true);
      } else await this.reread(rule, subject);
      return;
    }
    const severity = SEVERITY[rule];
    const repeat =
      severity === 'critical' ? nowIso(now + this.settings.repeat_critical_minutes * 60_000) : null;
    const base = {
      rule,
      subject,
      device_id: device?.id ?? null,
      room_id: device?.room_id ?? null,
      severity,
      detail,
      updated_at: at,
      resolved_at: null,
      acknowledged_at: null,
      next_repeat_at: repeat,
    };
    const windowMs = windowOf({ ...base, id: '', version: 0, opened_at: at }, this.settings) * 60_000;
    const recent = await repository.resolvedSince(rule, subject, nowIso(now - windowMs));
    if (recent?.resolved_at) {
      const reopened: Incident = {
        ...recent,
        ...base,
        version: recent.version + 1,
        opened_at: recent.opened_at,
      };
      if (await repository.claimReopen(reopened, recent.resolved_at)) {
        this.open.set(key, reopened);
        await this.tell(reopened, true);
        return;
      }
    } else {
      const incident: Incident = { ...base, id: crypto.randomUUID(), version: 1, opened_at: at };
      if (await repository.claimOpen(incident)) {
        this.open.set(key, incident);
        await this.tell(incident, true);
        return;
      }
    }
    // Another instance was first: take its incident.
    await this.reread(rule, subject);
  }

  private async resolve(incident: Incident, tellPeople: boolean) {
    const at = nowIso(this.deps.clock.now());
    const resolved: Incident = {
      ...incident,
      resolved_at: at,
      updated_at: at,
      version: incident.version + 1,
      next_repeat_at: null,
    };
    this.open.delete(openKey(incident.rule, incident.subject));
    if (await this.deps.repository.claimResolve(resolved)) await this.tell(resolved, tellPeople);
  }

  private async reread(rule: string, subject: string) {
    const stored = await this.deps.repository.openOf(rule, subject);
    if (stored) this.open.set(openKey(rule, subject), stored);
    else this.open.delete(openKey(rule, subject));
  }

  private async noteCondition(rule: string, subject: string, since: number): Promise<number> {
    const stored = Date.parse(await this.deps.repository.noteCondition(rule, subject, nowIso(since)));
    const value = Number.isFinite(stored) ? stored : since;
    this.conditions.set(openKey(rule, subject), value);
    return value;
  }

  private async dropCondition(rule: string, subject: string) {
    this.conditions.delete(openKey(rule, subject));
    await this.deps.repository.dropCondition(rule, subject);
  }

  private async tell(incident: Incident, deliver: boolean) {
    await yieldToEventLoop();
    await this.deps.notifier.publish(noticeOf(incident, this.settings, this.deps.timeZone), deliver);
  }
}

const splitKey = (key: string): [string, string] => {
  const at = key.indexOf(':');
  return [key.slice(0, at), key.slice(at + 1)];
};

/** The name people know the device by (as the Devices page shows it). */
function displayName(device: Device): string {
  const name = device.name?.trim();
  if (name) return name;
  const makeAndModel = [device.manufacturer, device.model].filter(Boolean).join(' ').trim();
  return makeAndModel || device.external_id || device.id;
}
