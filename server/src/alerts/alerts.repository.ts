import { type AlertSettings, DEFAULT_ALERT_SETTINGS, type NotificationKind } from '@hearth/contracts';
import type { Kysely, Selectable } from 'kysely';
import { isObject } from '../shared/json.js';
import type { Database } from '../storage/schema.js';
import type { AlertIncidentsTable } from './alerts.tables.js';

/** What a rule saw when it opened or last changed an incident. */
export interface IncidentDetail {
  /** The device's name then (or the hub part's). */
  name: string;
  /** battery: the level, if the device reports one; `low` when it says battery_low. */
  battery?: number;
  low?: boolean;
  /** safety: the alarms tripped. */
  tripped?: string[];
  /** When the condition began (offline since; an alarm since). */
  since?: string;
}

export interface Incident {
  id: string;
  rule: NotificationKind;
  subject: string;
  device_id: string | null;
  room_id: string | null;
  severity: 'info' | 'warning' | 'critical';
  detail: IncidentDetail;
  version: number;
  opened_at: string;
  updated_at: string;
  resolved_at: string | null;
  acknowledged_at: string | null;
  next_repeat_at: string | null;
}

export const openKey = (rule: string, subject: string) => `${rule}:${subject}`;

function toIncident(row: Selectable<AlertIncidentsTable>): Incident {
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.detail);
  } catch {
    parsed = {};
  }
  const detail = (isObject(parsed) ? parsed : {}) as unknown as IncidentDetail & { room_id?: string | null };
  const { room_id, ...rest } = detail;
  return {
    id: row.id,
    rule: row.rule as NotificationKind,
    subject: row.subject,
    device_id: row.device_id,
    room_id: room_id ?? null,
    severity: row.severity as Incident['severity'],
    detail: { ...rest, name: typeof rest.name === 'string' ? rest.name : '' },
    version: row.version,
    opened_at: row.opened_at,
    updated_at: row.updated_at,
    resolved_at: row.resolved_at,
    acknowledged_at: row.acknowledged_at,
    next_repeat_at: row.next_repeat_at,
  };
}

const detailText = (incident: Pick<Incident, 'detail' | 'room_id'>) =>
  JSON.stringify({ ...incident.detail, room_id: incident.room_id });

/**
 * Settings, mutes, incidents and waiting conditions (docs/alerts.md#storage). Every change that
 * people are told of is a claim: an insert or update that only one instance's statement can win.
 */
export class AlertsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async settings(): Promise<AlertSettings> {
    const row = await this.db
      .selectFrom('alert_settings')
      .select('settings')
      .where('id', '=', 'household')
      .executeTakeFirst();
    if (!row) return { ...DEFAULT_ALERT_SETTINGS };
    try {
      const stored: unknown = JSON.parse(row.settings);
      return { ...DEFAULT_ALERT_SETTINGS, ...(isObject(stored) ? (stored as Partial<AlertSettings>) : {}) };
    } catch {
      return { ...DEFAULT_ALERT_SETTINGS };
    }
  }

  async setSettings(settings: AlertSettings, at: string): Promise<void> {
    const text = JSON.stringify(settings);
    await this.db
      .insertInto('alert_settings')
      .values({ id: 'household', settings: text, updated_at: at })
      .onConflict((conflict) => conflict.column('id').doUpdateSet({ settings: text, updated_at: at }))
      .execute();
  }

  async mutes(): Promise<string[]> {
    const rows = await this.db.selectFrom('alert_mutes').select('device_id').execute();
    return rows.map((row) => row.device_id);
  }

  async setMuted(deviceId: string, muted: boolean, by: string, at: string): Promise<void> {
    if (!muted) {
      await this.db.deleteFrom('alert_mutes').where('device_id', '=', deviceId).execute();
      return;
    }
    await this.db
      .insertInto('alert_mutes')
      .values({ device_id: deviceId, muted_by: by, muted_at: at })
      .onConflict((conflict) => conflict.column('device_id').doNothing())
      .execute();
  }

  /** Every open incident. */
  async open(): Promise<Incident[]> {
    const rows = await this.db
      .selectFrom('alert_incidents')
      .selectAll()
      .where('open_key', 'is not', null)
      .execute();
    return rows.map(toIncident);
  }

  async find(id: string): Promise<Incident | undefined> {
    const row = await this.db
      .selectFrom('alert_incidents')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toIncident(row);
  }

  async openOf(rule: string, subject: string): Promise<Incident | undefined> {
    const row = await this.db
      .selectFrom('alert_incidents')
      .selectAll()
      .where('open_key', '=', openKey(rule, subject))
      .executeTakeFirst();
    return row && toIncident(row);
  }

  /** The newest incident of the rule and subject resolved at or after `since`. */
  async resolvedSince(rule: string, subject: string, since: string): Promise<Incident | undefined> {
    const row = await this.db
      .selectFrom('alert_incidents')
      .selectAll()
      .where('rule', '=', rule)
      .where('subject', '=', subject)
      .where('resolved_at', '>=', since)
      .orderBy('resolved_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row && toIncident(row);
  }

  /** Opens an incident unless one of its rule and subject is open; answers whether this did. */
  async claimOpen(incident: Incident): Promise<boolean> {
    const result = await this.db
      .insertInto('alert_incidents')
      .values({
        id: incident.id,
        rule: incident.rule,
        subject: incident.subject,
        device_id: incident.device_id,
        open_key: openKey(incident.rule, incident.subject),
        severity: incident.severity,
        detail: detailText(incident),
        version: incident.version,
        opened_at: incident.opened_at,
        updated_at: incident.updated_at,
        resolved_at: null,
        acknowledged_at: null,
        acknowledged_by: null,
        next_repeat_at: incident.next_repeat_at,
      })
      .onConflict((conflict) => conflict.column('open_key').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /**
   * Opens a recently resolved incident again (a flapping device keeps one incident): wins unless
   * another instance reopened it, or opened a new one, first.
   */
  async claimReopen(incident: Incident, resolvedAt: string): Promise<boolean> {
    try {
      const result = await this.db
        .updateTable('alert_incidents')
        .set({
          open_key: openKey(incident.rule, incident.subject),
          resolved_at: null,
          detail: detailText(incident),
          version: incident.version,
          updated_at: incident.updated_at,
          next_repeat_at: incident.next_repeat_at,
          acknowledged_at: null,
          acknowledged_by: null,
        })
        .where('id', '=', incident.id)
        .where('resolved_at', '=', resolvedAt)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    } catch {
      // The unique open key: another instance opened a new incident of the same rule and subject.
      return false;
    }
  }

  /** A change people are told of (worse, a repeat): wins when `version` is still the stored one. */
  async claimChange(incident: Incident, fromVersion: number): Promise<boolean> {
    const result = await this.db
      .updateTable('alert_incidents')
      .set({
        severity: incident.severity,
        detail: detailText(incident),
        version: incident.version,
        updated_at: incident.updated_at,
        next_repeat_at: incident.next_repeat_at,
      })
      .where('id', '=', incident.id)
      .where('version', '=', fromVersion)
      .where('resolved_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Resolves an open incident; answers whether this did. */
  async claimResolve(incident: Incident): Promise<boolean> {
    const result = await this.db
      .updateTable('alert_incidents')
      .set({
        open_key: null,
        resolved_at: incident.resolved_at,
        version: incident.version,
        updated_at: incident.updated_at,
        next_repeat_at: null,
        detail: detailText(incident),
      })
      .where('id', '=', incident.id)
      .where('resolved_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Critical incidents whose repeat is due. */
  async repeatsDue(now: string): Promise<Incident[]> {
    const rows = await this.db
      .selectFrom('alert_incidents')
      .selectAll()
      .where('next_repeat_at', '<=', now)
      .where('resolved_at', 'is', null)
      .where('acknowledged_at', 'is', null)
      .execute();
    return rows.map(toIncident);
  }

  /** The first acknowledgement: the repeats stop. */
  async acknowledge(id: string, by: string, at: string): Promise<void> {
    await this.db
      .updateTable('alert_incidents')
      .set({ acknowledged_at: at, acknowledged_by: by, next_repeat_at: null })
      .where('id', '=', id)
      .where('acknowledged_at', 'is', null)
      .execute();
  }

  // ── conditions waiting for their time ────────────────────────────────────────────────────────

  async conditions(): Promise<{ rule: string; subject: string; since: string }[]> {
    return this.db.selectFrom('alert_conditions').select(['rule', 'subject', 'since']).execute();
  }

  /** Notes a condition (the first instance's `since` stays); answers the stored `since`. */
  async noteCondition(rule: string, subject: string, since: string): Promise<string> {
    await this.db
      .insertInto('alert_conditions')
      .values({ rule, subject, since })
      .onConflict((conflict) => conflict.columns(['rule', 'subject']).doNothing())
      .execute();
    const row = await this.db
      .selectFrom('alert_conditions')
      .select('since')
      .where('rule', '=', rule)
      .where('subject', '=', subject)
      .executeTakeFirst();
    return row?.since ?? since;
  }

  async dropCondition(rule: string, subject: string): Promise<void> {
    await this.db
      .deleteFrom('alert_conditions')
      .where('rule', '=', rule)
      .where('subject', '=', subject)
      .execute();
  }
}
