import type {
  AutomationAction,
  AutomationCondition,
  AutomationMode,
  AutomationRun,
  AutomationTrigger,
  CatchUpMode,
  HouseholdLocation,
  RunStatus,
  RunStep,
  RunTrigger,
} from '@hearth/contracts';
import { AUTOMATION_QUEUE_LIMIT, AUTOMATION_RUNS_PER_MINUTE, AUTOMATION_TRACE_RUNS } from '@hearth/contracts';
import type { ExpressionBuilder, Kysely, Selectable, Transaction } from 'kysely';
import { isObject } from '../shared/json.js';
import { fromBool, nowIso, toBool } from '../storage/columns.js';
import type { Database } from '../storage/schema.js';
import { AUTOMATIONS_ERRORS as E } from './automations.errors.js';
import type { AutomationRunsTable, AutomationsTable } from './automations.tables.js';

/** An automation as stored. */
export interface AutomationRecord {
  id: string;
  name: string;
  enabled: boolean;
  mode: AutomationMode;
  catch_up: CatchUpMode;
  triggers: AutomationTrigger[];
  conditions: AutomationCondition[];
  actions: AutomationAction[];
  owner_id: string;
  next_run: string | null;
  last_run_at: string | null;
  last_run_status: string | null;
  paused_reason: string | null;
}

/** A run as the executor works on it. */
export interface RunRecord {
  id: string;
  automation_id: string;
  started_at: string;
  finished_at: string | null;
  trigger: RunTrigger;
  status: RunStatus;
  steps: RunStep[];
  position: number;
  resume_at: string | null;
  version: number;
}

const FINAL: RunStatus[] = ['done', 'failed', 'skipped', 'missed', 'stopped'];
const ACTIVE: RunStatus[] = ['running', 'waiting'];
/** Runs of an automation between two prunes of its old runs. */
const PRUNE_EVERY = 10;

function parsed<T>(text: string, fallback: T): T {
  try {
    const value: unknown = JSON.parse(text);
    return (value ?? fallback) as T;
  } catch {
    return fallback;
  }
}

export function toAutomation(row: Selectable<AutomationsTable>): AutomationRecord {
  return {
    id: row.id,
    name: row.name,
    enabled: toBool(row.enabled),
    mode: row.mode as AutomationMode,
    catch_up: row.catch_up as CatchUpMode,
    triggers: parsed(row.triggers, []),
    conditions: parsed(row.conditions, []),
    actions: parsed(row.actions, []),
    owner_id: row.owner_id,
    next_run: row.next_run,
    last_run_at: row.last_run_at,
    last_run_status: row.last_run_status,
    paused_reason: row.paused_reason,
  };
}

const toRun = (row: Selectable<AutomationRunsTable>): RunRecord => ({
  id: row.id,
  automation_id: row.automation_id,
  started_at: row.started_at,
  finished_at: row.finished_at,
  trigger: parsed(row.trigger, { type: 'unknown', description: '' }),
  status: row.status as RunStatus,
  steps: parsed(row.steps, []),
  position: row.position,
  resume_at: row.resume_at,
  version: row.version,
});

export const toRunView = (run: RunRecord): AutomationRun => ({
  id: run.id,
  started_at: run.started_at,
  finished_at: run.finished_at,
  trigger: run.trigger,
  status: run.status,
  steps: run.steps,
});

/** How a run start came out (docs/automations.md#run-modes). */
export type StartOutcome =
  | { kind: 'elsewhere' }
  | { kind: 'gone' }
  | { kind: 'disabled' }
  | { kind: 'recorded'; runId: string; status: RunStatus; stopped: string[] }
  | { kind: 'queued'; runId: string }
  | { kind: 'paused'; runId: string; stopped: string[]; name: string }
  | { kind: 'running'; run: RunRecord; stopped: string[] };

export interface StartRequest {
  automationId: string;
  trigger: RunTrigger;
  /** The conditions' steps, evaluated when it was triggered. */
  steps: RunStep[];
  passed: boolean;
  /** Counts for the loop breaker (scheduled fires do not: their rule bounds them). */
  counted: boolean;
  /** Run now: runs whether enabled or not. */
  manual?: boolean;
  /** Recorded as missed (a scheduled fire while Hearth was down), with this reason. */
  missed?: string;
  /** A scheduled fire: claimed first, and the automation's next fire set, in the same transaction. */
  claim?: { fireAt: string; nextRun: string | null };
  /** A state trigger's `for` that came due: its row is taken in the same transaction. */
  pendingId?: string;
  now: number;
  instance: string;
  leaseMs: number;
}

let sequence = 0;
/** Run ids sort by time, then by the order this instance made them. */
export function runId(now: number): string {
  sequence = (sequence + 1) % 0x1000000;
  // A v4 UUID's first 8 hex digits are random; randomUUID draws them from a buffer it fills in
  // batches (about 1 µs a call here, against 3.5 µs for getRandomValues and its two buffers).
  const random = crypto.randomUUID().slice(0, 8);
  return `${now.toString(16).padStart(12, '0')}${sequence.toString(16).padStart(6, '0')}${random}`;
}

/** Automations, their runs, claims and `for` deadlines (docs/automations.md#storage), on both databases. */
export class AutomationsRepository {
  /** Per automation, its runs since its old runs were last pruned by this instance. */
  private readonly sincePrune = new Map<string, number>();

  constructor(private readonly db: Kysely<Database>) {}

  // ── automations ─────────────────────────────────────────────────────────────────────────────

  async page(after: { name: string; id: string } | undefined, limit: number): Promise<AutomationRecord[]> {
    let query = this.db.selectFrom('automations').selectAll();
    if (after)
      query = query.where((eb) =>
        eb.or([eb('name', '>', after.name), eb.and([eb('name', '=', after.name), eb('id', '>', after.id)])]),
      );
    const rows = await query.orderBy('name').orderBy('id').limit(limit).execute();
    return rows.map(toAutomation);
  }

  async all(): Promise<AutomationRecord[]> {
    return (await this.db.selectFrom('automations').selectAll().execute()).map(toAutomation);
  }

  async find(id: string): Promise<AutomationRecord | undefined> {
    const row = await this.db.selectFrom('automations').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toAutomation(row);
  }

  async names(ids: readonly string[]): Promise<Map<string, { name: string; actions: AutomationAction[] }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('automations')
      .select(['id', 'name', 'actions'])
      .where('id', 'in', ids)
      .execute();
    return new Map(rows.map((row) => [row.id, { name: row.name, actions: parsed(row.actions, []) }]));
  }

  async insert(automation: AutomationRecord, at: string): Promise<void> {
    await this.db
      .insertInto('automations')
      .values({
        id: automation.id,
        name: automation.name,
        enabled: fromBool(automation.enabled),
        mode: automation.mode,
        catch_up: automation.catch_up,
        triggers: JSON.stringify(automation.triggers),
        conditions: JSON.stringify(automation.conditions),
        actions: JSON.stringify(automation.actions),
        owner_id: automation.owner_id,
        next_run: automation.next_run,
        last_run_at: null,
        last_run_status: null,
        paused_reason: null,
        run_seq: 0,
        created_at: at,
        updated_at: at,
      })
      .execute();
  }

  async update(automation: AutomationRecord, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('automations')
      .set({
        name: automation.name,
        enabled: fromBool(automation.enabled),
        mode: automation.mode,
        catch_up: automation.catch_up,
        triggers: JSON.stringify(automation.triggers),
        conditions: JSON.stringify(automation.conditions),
        actions: JSON.stringify(automation.actions),
        owner_id: automation.owner_id,
        next_run: automation.next_run,
        paused_reason: automation.paused_reason,
        updated_at: at,
      })
      .where('id', '=', automation.id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async setEnabled(id: string, enabled: boolean, nextRun: string | null, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('automations')
      .set({
        enabled: fromBool(enabled),
        next_run: nextRun,
        updated_at: at,
        ...(enabled ? { paused_reason: null } : {}),
      })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(id: string): Promise<boolean> {
    this.sincePrune.delete(id);
    const result = await this.db.deleteFrom('automations').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Enabled automations whose next fire is at or before `now`, earliest first. */
  async due(now: string, limit: number): Promise<AutomationRecord[]> {
    const rows = await this.db
      .selectFrom('automations')
      .selectAll()
      .where('enabled', '=', 1)
      .where('next_run', 'is not', null)
      .where('next_run', '<=', now)
      .orderBy('next_run')
      .limit(limit)
      .execute();
    return rows.map(toAutomation);
  }

  /** The earliest next fire of any enabled automation, and the earliest deadline of a wait or `for`. */
  async earliest(): Promise<number | null> {
    const [fire, run, pending] = await Promise.all([
      this.db
        .selectFrom('automations')
        .select((eb) => eb.fn.min('next_run').as('at'))
        .where('enabled', '=', 1)
        .executeTakeFirst(),
      this.db
        .selectFrom('automation_runs')
        .select((eb) => eb.fn.min('resume_at').as('at'))
        .where('status', '=', 'waiting')
        .executeTakeFirst(),
      this.db
        .selectFrom('automation_pending')
        .select((eb) => eb.fn.min('due_at').as('at'))
        .executeTakeFirst(),
    ]);
    const times = [fire?.at, run?.at, pending?.at]
      .filter((at): at is string => typeof at === 'string')
      .map((at) => Date.parse(at));
    return times.length > 0 ? Math.min(...times) : null;
  }

  // ── household settings ──────────────────────────────────────────────────────────────────────

  async location(): Promise<HouseholdLocation | undefined> {
    const row = await this.db
      .selectFrom('automation_settings')
      .select('value')
      .where('name', '=', 'location')
      .executeTakeFirst();
    if (!row) return undefined;
    const value = parsed<unknown>(row.value, null);
    if (!isObject(value)) return undefined;
    const latitude = typeof value.latitude === 'number' ? value.latitude : null;
    const longitude = typeof value.longitude === 'number' ? value.longitude : null;
    return { latitude, longitude };
  }

  async setLocation(location: HouseholdLocation, at: string): Promise<void> {
    const value = JSON.stringify(location);
    await this.db
      .insertInto('automation_settings')
      .values({ name: 'location', value, updated_at: at })
      .onConflict((conflict) => conflict.column('name').doUpdateSet({ value, updated_at: at }))
      .execute();
  }

  // ── runs ────────────────────────────────────────────────────────────────────────────────────

  async runs(automationId: string, limit = AUTOMATION_TRACE_RUNS): Promise<RunRecord[]> {
    const rows = await this.db
      .selectFrom('automation_runs')
      .selectAll()
      .where('automation_id', '=', automationId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toRun);
  }

  async run(id: string): Promise<RunRecord | undefined> {
    const row = await this.db
      .selectFrom('automation_runs')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRun(row);
  }

  /** Runs another instance may take over: a wait that came due, or a run whose instance went away. */
  async resumable(now: string, limit: number): Promise<RunRecord[]> {
    const rows = await this.db
      .selectFrom('automation_runs')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'waiting'), eb('resume_at', '<=', now)]),
          eb.and([eb('status', '=', 'running'), eb('lease_until', '<', now)]),
        ]),
      )
      .orderBy('resume_at')
      .limit(limit)
      .execute();
    return rows.map(toRun);
  }

  /** Takes a run over (compare-and-set on its version); the taken run, or undefined when another did. */
  async takeOver(run: RunRecord, instance: string, leaseUntil: string): Promise<RunRecord | undefined> {
    const result = await this.db
      .updateTable('automation_runs')
      .set({ status: 'running', lease_owner: instance, lease_until: leaseUntil, version: run.version + 1 })
      .where('id', '=', run.id)
      .where('version', '=', run.version)
      .where('status', 'in', ['running', 'waiting'])
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return undefined;
    return { ...run, status: 'running', version: run.version + 1 };
  }

  /**
   * Stores a run's progress if nobody changed it meanwhile (a restart stopping it, another instance);
   * the run with its new version, or undefined when it is no longer this executor's.
   */
  async progress(
    run: RunRecord,
    change: {
      status: RunStatus;
      steps: RunStep[];
      position: number;
      resume_at: string | null;
      lease: { owner: string; until: string } | null;
      finished_at: string | null;
    },
  ): Promise<RunRecord | undefined> {
    const result = await this.db
      .updateTable('automation_runs')
      .set({
        status: change.status,
        steps: JSON.stringify(change.steps),
        position: change.position,
        resume_at: change.resume_at,
        lease_owner: change.lease?.owner ?? null,
        lease_until: change.lease?.until ?? null,
        finished_at: change.finished_at,
        version: run.version + 1,
      })
      .where('id', '=', run.id)
      .where('version', '=', run.version)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return undefined;
    if (FINAL.includes(change.status)) {
      // The row is updated whatever its last run, so that on PostgreSQL this waits for a start
      // that holds its lock (nextQueued's look for a queued run then sees what that start queued).
      const newer = (eb: ExpressionBuilder<Database, 'automations'>) =>
        eb.and([eb('last_run_at', 'is not', null), eb('last_run_at', '>', run.started_at)]);
      await this.db
        .updateTable('automations')
        .set((eb) => ({
          last_run_at: eb.case().when(newer(eb)).then(eb.ref('last_run_at')).else(run.started_at).end(),
          last_run_status: eb
            .case()
            .when(newer(eb))
            .then(eb.ref('last_run_status'))
            .else(change.status)
            .end(),
        }))
        .where('id', '=', run.automation_id)
        .execute();
    }
    return {
      ...run,
      status: change.status,
      steps: change.steps,
      position: change.position,
      resume_at: change.resume_at,
      finished_at: change.finished_at,
      version: run.version + 1,
    };
  }

  /** Stops the automation's unfinished runs (a restart, a disable), with `reason` as their last step. */
  private async stopActive(
    trx: Transaction<Database>,
    automationId: string,
    reason: string,
    at: string,
    statuses: RunStatus[] = [...ACTIVE, 'queued'],
  ): Promise<string[]> {
    const rows = await trx
      .selectFrom('automation_runs')
      .selectAll()
      .where('automation_id', '=', automationId)
      .where('status', 'in', statuses)
      .execute();
    for (const row of rows) {
      const run = toRun(row);
      await trx
        .updateTable('automation_runs')
        .set({
          status: 'stopped',
          finished_at: at,
          resume_at: null,
          lease_owner: null,
          lease_until: null,
          version: run.version + 1,
          steps: JSON.stringify([...run.steps, { kind: 'stop', at, result: 'stopped', error: reason }]),
        })
        .where('id', '=', run.id)
        .execute();
    }
    return rows.map((row) => row.id);
  }

  /** Disabling stops what runs; the runs stopped. */
  async stopRuns(automationId: string, reason: string, at: string): Promise<string[]> {
    return this.db.transaction().execute((trx) => this.stopActive(trx, automationId, reason, at));
  }

  /**
   * docs/automations.md#guarantees: one transaction claims the fire (or the `for` row), locks the
   * automation (run starts queue up behind each other), applies the loop breaker and the run mode,
   * and records the run.
   */
  async start(request: StartRequest): Promise<StartOutcome> {
    const at = nowIso(request.now);
    const outcome = await this.db.transaction().execute(async (trx): Promise<StartOutcome> => {
      if (request.claim) {
        const claimed = await trx
          .insertInto('automation_fires')
          .values({
            automation_id: request.automationId,
            fire_at: request.claim.fireAt,
            claimed_at: at,
            claimed_by: request.instance,
          })
          .onConflict((conflict) => conflict.columns(['automation_id', 'fire_at']).doNothing())
          .executeTakeFirst();
        if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) return { kind: 'elsewhere' };
        await trx
          .updateTable('automations')
          .set({ next_run: request.claim.nextRun })
          .where('id', '=', request.automationId)
          .execute();
      }
      if (request.pendingId) {
        const taken = await trx
          .deleteFrom('automation_pending')
          .where('id', '=', request.pendingId)
          .executeTakeFirst();
        if (Number(taken.numDeletedRows) === 0) return { kind: 'elsewhere' };
      }
      // Locks the automation's row on PostgreSQL until the transaction ends, and reads it.
      const row = await trx
        .updateTable('automations')
        .set((eb) => ({ run_seq: eb('run_seq', '+', 1) }))
        .where('id', '=', request.automationId)
        .returningAll()
        .executeTakeFirst();
      if (!row) return { kind: 'gone' };
      const automation = toAutomation(row);
      if (!automation.enabled && !request.manual) return { kind: 'disabled' };

      const record = async (
        status: RunStatus,
        steps: RunStep[],
        stopped: string[] = [],
      ): Promise<StartOutcome> => {
        const id = runId(request.now);
        await trx
          .insertInto('automation_runs')
          .values({
            id,
            automation_id: automation.id,
            started_at: at,
            finished_at: status === 'queued' ? null : at,
            trigger: JSON.stringify(request.trigger),
            status,
            steps: JSON.stringify(steps),
            position: 0,
            resume_at: null,
            lease_owner: null,
            lease_until: null,
            version: 0,
            counted: fromBool(request.counted),
          })
          .execute();
        if (status === 'queued') return { kind: 'queued', runId: id };
        await trx
          .updateTable('automations')
          .set({ last_run_at: at, last_run_status: status })
          .where('id', '=', automation.id)
          .execute();
        return { kind: 'recorded', runId: id, status, stopped };
      };

      if (request.missed)
        return record('missed', [{ kind: 'schedule', at, result: 'missed', error: request.missed }]);
      if (!request.passed) return record('skipped', request.steps);

      const active = await trx
        .selectFrom('automation_runs')
        .select(['id', 'status'])
        .where('automation_id', '=', automation.id)
        .where('status', 'in', [...ACTIVE, 'queued'])
        .execute();
      const running = active.filter((each) => each.status !== 'queued');

      if (request.counted) {
        const since = nowIso(request.now - 60_000);
        const recent = await trx
          .selectFrom('automation_runs')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('automation_id', '=', automation.id)
          .where('counted', '=', 1)
          .where('started_at', '>=', since)
          .where('status', 'not in', ['skipped', 'missed'])
          .executeTakeFirst();
        if (Number(recent?.count ?? 0) >= AUTOMATION_RUNS_PER_MINUTE) {
          const stopped = await this.stopActive(trx, automation.id, E.loopPaused, at);
          await trx
            .updateTable('automations')
            .set({ enabled: 0, next_run: null, paused_reason: E.loopPaused, updated_at: at })
            .where('id', '=', automation.id)
            .execute();
          const paused = await record('stopped', [
            ...request.steps,
            { kind: 'loop', at, result: 'paused', error: E.loopPaused },
          ]);
          return {
            kind: 'paused',
            runId: paused.kind === 'recorded' ? paused.runId : '',
            stopped,
            name: automation.name,
          };
        }
      }

      let stopped: string[] = [];
      if (running.length > 0) {
        if (automation.mode === 'single')
          return record('skipped', [
            ...request.steps,
            { kind: 'mode', at, result: 'ignored', error: E.alreadyRunning },
          ]);
        if (automation.mode === 'queued') {
          if (active.length - running.length >= AUTOMATION_QUEUE_LIMIT)
            return record('skipped', [
              ...request.steps,
              { kind: 'mode', at, result: 'ignored', error: E.queueFull },
            ]);
          return record('queued', request.steps);
        }
        stopped = await this.stopActive(trx, automation.id, E.restarted, at);
      }
      const id = runId(request.now);
      const run: RunRecord = {
        id,
        automation_id: automation.id,
        started_at: at,
        finished_at: null,
        trigger: request.trigger,
        status: 'running',
        steps: request.steps,
        position: 0,
        resume_at: null,
        version: 0,
      };
      await trx
        .insertInto('automation_runs')
        .values({
          id,
          automation_id: automation.id,
          started_at: at,
          finished_at: null,
          trigger: JSON.stringify(request.trigger),
          status: 'running',
          steps: JSON.stringify(request.steps),
          position: 0,
          resume_at: null,
          lease_owner: request.instance,
          lease_until: nowIso(request.now + request.leaseMs),
          version: 0,
          counted: fromBool(request.counted),
        })
        .execute();
      await trx
        .updateTable('automations')
        .set({ last_run_at: at, last_run_status: 'running' })
        .where('id', '=', automation.id)
        .execute();
      return { kind: 'running', run, stopped };
    });
    // A run that goes on is pruned after it ends (its command goes out first).
    if (outcome.kind === 'recorded' || outcome.kind === 'paused' || outcome.kind === 'queued')
      await this.prune(request.automationId);
    return outcome;
  }

  /** After a run ended: the oldest queued run, now running on this instance (if nothing else runs). */
  async nextQueued(
    automationId: string,
    now: number,
    instance: string,
    leaseMs: number,
  ): Promise<RunRecord | undefined> {
    // Mostly there is none: one read instead of a transaction. A start that queued a run behind the
    // one that just ended has committed by now (the end's update of the automation waited for it).
    const queued = await this.db
      .selectFrom('automation_runs')
      .select('id')
      .where('automation_id', '=', automationId)
      .where('status', '=', 'queued')
      .executeTakeFirst();
    if (!queued) return undefined;
    return this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('automations')
        .set((eb) => ({ run_seq: eb('run_seq', '+', 1) }))
        .where('id', '=', automationId)
        .execute();
      const busy = await trx
        .selectFrom('automation_runs')
        .select('id')
        .where('automation_id', '=', automationId)
        .where('status', 'in', ACTIVE)
        .executeTakeFirst();
      if (busy) return undefined;
      const row = await trx
        .selectFrom('automation_runs')
        .selectAll()
        .where('automation_id', '=', automationId)
        .where('status', '=', 'queued')
        .orderBy('id')
        .executeTakeFirst();
      if (!row) return undefined;
      await trx
        .updateTable('automation_runs')
        .set({
          status: 'running',
          lease_owner: instance,
          lease_until: nowIso(now + leaseMs),
          version: row.version + 1,
        })
        .where('id', '=', row.id)
        .execute();
      return { ...toRun(row), status: 'running' as const, version: row.version + 1 };
    });
  }

  /**
   * Keeps the newest AUTOMATION_TRACE_RUNS runs of an automation (and any not over yet): at its
   * first run after the start, then every PRUNE_EVERY runs (the list shows the newest 50 alone).
   */
  async prune(automationId: string): Promise<void> {
    const since = this.sincePrune.get(automationId);
    if (since !== undefined && since + 1 < PRUNE_EVERY) {
      this.sincePrune.set(automationId, since + 1);
      return;
    }
    this.sincePrune.set(automationId, 0);
    const cutoff = await this.db
      .selectFrom('automation_runs')
      .select('id')
      .where('automation_id', '=', automationId)
      .orderBy('id', 'desc')
      .offset(AUTOMATION_TRACE_RUNS - 1)
      .limit(1)
      .executeTakeFirst();
    if (!cutoff) return;
    await this.db
      .deleteFrom('automation_runs')
      .where('automation_id', '=', automationId)
      .where('id', '<', cutoff.id)
      .where('status', 'in', FINAL)
      .execute();
    // Claims older than a day have done their work.
    await this.db
      .deleteFrom('automation_fires')
      .where('automation_id', '=', automationId)
      .where('claimed_at', '<', nowIso(Date.parse(cutoffTime(cutoff.id)) - 86_400_000))
      .execute();
  }

  // ── `for` deadlines ─────────────────────────────────────────────────────────────────────────

  /** Starts a `for` (if not already waiting). */
  async addPending(row: {
    automation_id: string;
    trigger_index: number;
    device_id: string;
    since: string;
    due_at: string;
    description: string;
  }): Promise<void> {
    await this.db
      .insertInto('automation_pending')
      .values({ id: crypto.randomUUID(), ...row })
      .onConflict((conflict) => conflict.columns(['automation_id', 'trigger_index', 'device_id']).doNothing())
      .execute();
  }

  async dropPending(automationId: string, triggerIndex: number, deviceId: string): Promise<void> {
    await this.db
      .deleteFrom('automation_pending')
      .where('automation_id', '=', automationId)
      .where('trigger_index', '=', triggerIndex)
      .where('device_id', '=', deviceId)
      .execute();
  }

  async pending(): Promise<Selectable<Database['automation_pending']>[]> {
    return this.db.selectFrom('automation_pending').selectAll().execute();
  }

  async duePending(now: string, limit: number): Promise<Selectable<Database['automation_pending']>[]> {
    return this.db
      .selectFrom('automation_pending')
      .selectAll()
      .where('due_at', '<=', now)
      .orderBy('due_at')
      .limit(limit)
      .execute();
  }

  async dropPendingOf(automationId: string): Promise<void> {
    await this.db.deleteFrom('automation_pending').where('automation_id', '=', automationId).execute();
  }
}

/** The time a run id was made at (its first 12 hex digits are epoch ms). */
const cutoffTime = (id: string) => new Date(Number.parseInt(id.slice(0, 12), 16)).toISOString();
