import {
  AUTOMATION_PAGE_SIZE,
  type Automation,
  type AutomationAction,
  type AutomationList,
  type AutomationRuns,
  type AutomationTrigger,
  type HouseholdLocation,
  type RunStatus,
} from '@hearth/contracts';
import type { DeviceFeed, Reach } from '../devicehub/index.js';
import { HttpError } from '../http/errors.js';
import { readableKeys, refusedKey, type ScenesService, seesScene } from '../scenes/index.js';
import { nowIso } from '../storage/columns.js';
import type { UserRecord } from '../users/index.js';
import type { AutomationEngine } from './automations.engine.js';
import { AUTOMATIONS_ERRORS as E } from './automations.errors.js';
import { actsOn, type RuleLookups, seesAutomation } from './automations.reach.js';
import { type AutomationRecord, type AutomationsRepository, toRunView } from './automations.repository.js';
import { cronProblem, type Location, nextRunOf } from './automations.schedule.js';
import type { CreateAutomation, UpdateAutomation } from './automations.schemas.js';

export interface AutomationsServiceDeps {
  repository: AutomationsRepository;
  engine: AutomationEngine;
  feed: Pick<DeviceFeed, 'find'>;
  scenes: Pick<ScenesService, 'get' | 'sightOf'>;
  /** Whether an account exists (notify's people). */
  person(id: string): Promise<boolean>;
  reachOf(user: UserRecord): Promise<Reach>;
  clock: { now(): number };
  zone: string;
  location: {
    get(): Location | null;
    /** HOUSEHOLD_LATITUDE/LONGITUDE, unless an admin set another. */
    set(location: HouseholdLocation): Promise<void>;
    view(): HouseholdLocation;
  };
}

const encodeCursor = (row: { name: string; id: string }) =>
  Buffer.from(JSON.stringify([row.name, row.id])).toString('base64url');

function decodeCursor(cursor: string): { name: string; id: string } {
  try {
    const [name, id, extra] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof name === 'string' && typeof id === 'string' && extra === undefined) return { name, id };
  } catch {
    // refused below
  }
  throw new HttpError(400, E.cursor);
}

/** Pages a narrowed caller's list reads on past the automations hidden from them; then it ends short. */
const PAGE_READS = 10;

/** docs/automations.md#api: automations kept, checked against the hub and the caller's reach, and run. */
export class AutomationsService {
  private readonly lookups: RuleLookups;

  constructor(private readonly deps: AutomationsServiceDeps) {
    this.lookups = {
      automation: (id) => deps.repository.find(id),
      scene: (id) => deps.scenes.get(id).catch(() => undefined),
    };
  }

  view(automation: AutomationRecord): Automation {
    return {
      id: automation.id,
      name: automation.name,
      enabled: automation.enabled,
      mode: automation.mode,
      catch_up: automation.catch_up,
      triggers: automation.triggers,
      conditions: automation.conditions,
      actions: automation.actions,
      owner_id: automation.owner_id,
      next_run: automation.enabled ? automation.next_run : null,
      last_run:
        automation.last_run_at && automation.last_run_status
          ? { at: automation.last_run_at, status: automation.last_run_status as RunStatus }
          : null,
      paused_reason: automation.paused_reason,
    };
  }

  /**
   * GET /api/automations: the automations naming nothing hidden from the caller
   * (docs/automations.md#who), by name; a page reads on past the hidden ones (a few reads at most).
   */
  async list(
    caller: UserRecord,
    query: { cursor?: string | undefined; limit?: number | undefined },
  ): Promise<AutomationList> {
    const limit = query.limit ?? AUTOMATION_PAGE_SIZE;
    const reach = await this.deps.reachOf(caller);
    const sees = this.deps.scenes.sightOf(reach);
    const page: AutomationRecord[] = [];
    let after = query.cursor ? decodeCursor(query.cursor) : undefined;
    let more = true;
    for (let reads = 0; more && page.length < limit && reads < PAGE_READS; reads++) {
      const rows = await this.deps.repository.page(after, limit + 1);
      let used = 0;
      for (const row of rows) {
        if (page.length === limit) break;
        used++;
        after = row;
        if (reach.everything || (await seesAutomation(row, sees, this.lookups))) page.push(row);
      }
      more = used < rows.length || rows.length > limit;
    }
    return {
      automations: page.map((row) => this.view(row)),
      next_cursor: more && after ? encodeCursor(after) : null,
      time_zone: this.deps.zone,
    };
  }

  async get(id: string): Promise<AutomationRecord> {
    const automation = await this.deps.repository.find(id);
    if (!automation) throw new HttpError(404, E.notFound);
    return automation;
  }

  /** An automation the caller sees; one naming something hidden from them is not found. */
  async seen(caller: UserRecord, id: string): Promise<AutomationRecord> {
    const automation = await this.get(id);
    const reach = await this.deps.reachOf(caller);
    if (
      !reach.everything &&
      !(await seesAutomation(automation, this.deps.scenes.sightOf(reach), this.lookups))
    )
      throw new HttpError(404, E.notFound);
    return automation;
  }

  async runs(caller: UserRecord, id: string): Promise<AutomationRuns> {
    await this.seen(caller, id);
    return { runs: (await this.deps.repository.runs(id)).map(toRunView) };
  }

  /**
   * docs/automations.md#who: running or switching on an automation hands out what it does with
   * its owner's reach, so someone else needs `control` of every device it acts on (403 naming the
   * first they may only view).
   */
  private async mayHandOut(caller: UserRecord, automation: AutomationRecord, reach?: Reach) {
    if (caller.id === automation.owner_id) return;
    const mine = reach ?? (await this.deps.reachOf(caller));
    if (mine.everything) return;
    for (const id of await actsOn(automation, this.lookups)) {
      const device = this.deps.feed.find(id);
      if (device && mine.levelOf(id) !== 'control') throw new HttpError(403, E.viewOnly(device.name));
    }
  }

  /** A device the caller may view (else it is unknown to them), and for actions control. */
  private device(reach: Reach, id: string, control: boolean) {
    const device = this.deps.feed.find(id);
    const level = device ? (reach.everything ? 'control' : reach.levelOf(id)) : 'none';
    if (!device || level === 'none') throw new HttpError(400, E.unknownDevice(id));
    if (control && level !== 'control') throw new HttpError(403, E.viewOnly(device.name));
    return device;
  }

  /** docs/automations.md#who: every part names what exists and what the caller may use. */
  private async check(
    caller: UserRecord,
    self: string,
    rule: Pick<AutomationRecord, 'triggers' | 'conditions' | 'actions'>,
  ) {
    const reach = await this.deps.reachOf(caller);
    const now = this.deps.clock.now();
    rule.triggers.forEach((trigger, index) => {
      const field = `triggers.${index}`;
      if (trigger.type === 'cron') {
        const problem = cronProblem(trigger.expression, now);
        if (problem === 'fields') throw new HttpError(400, E.cronFields(`${field}.expression`));
        if (problem === 'syntax') throw new HttpError(400, E.cronSyntax(`${field}.expression`));
        if (problem === 'never') throw new HttpError(400, E.cronNever(`${field}.expression`));
        if (problem === 'too-often') throw new HttpError(400, E.cronTooOften(`${field}.expression`));
      }
      if (trigger.type === 'sun' && !this.deps.location.get()) throw new HttpError(400, E.noLocation);
      if (trigger.type === 'state') {
        if (trigger.to !== undefined && (trigger.above !== undefined || trigger.below !== undefined))
          throw new HttpError(400, E.stateTrigger(field));
        const device = this.device(reach, trigger.device_id, false);
        if (!readableKeys(device).has(trigger.property))
          throw new HttpError(400, E.unknownProperty(device.name, trigger.property));
      }
      if (trigger.type === 'event') {
        const device = this.device(reach, trigger.device_id, false);
        if (!readableKeys(device).has('action'))
          throw new HttpError(400, E.unknownProperty(device.name, 'action'));
      }
      if (trigger.type === 'availability') this.device(reach, trigger.device_id, false);
    });
    rule.conditions.forEach((condition, index) => {
      const field = `conditions.${index}`;
      if (condition.type === 'state') {
        if (condition.equals === undefined && condition.above === undefined && condition.below === undefined)
          throw new HttpError(400, E.stateCondition(field));
        const device = this.device(reach, condition.device_id, false);
        if (!readableKeys(device).has(condition.property))
          throw new HttpError(400, E.unknownProperty(device.name, condition.property));
      }
      if (condition.type === 'time' && !condition.after && !condition.before && !condition.weekdays)
        throw new HttpError(400, E.timeCondition(field));
      if (condition.type === 'sun' && !this.deps.location.get()) throw new HttpError(400, E.noLocation);
    });
    for (const action of rule.actions) {
      if (action.type === 'device') {
        const device = this.device(reach, action.device_id, true);
        const refused = refusedKey(device, action.state);
        if (refused)
          throw new HttpError(
            400,
            refused.known
              ? E.notWritable(device.name, refused.key)
              : E.unknownProperty(device.name, refused.key),
          );
      }
      if (action.type === 'scene') {
        const scene = await this.lookups.scene(action.scene_id);
        if (!scene || !seesScene(scene, this.deps.scenes.sightOf(reach)))
          throw new HttpError(400, E.sceneNotFound(action.scene_id));
      }
      if (action.type === 'notify' && action.to !== 'household') {
        for (const id of action.to)
          if (!(await this.deps.person(id))) throw new HttpError(400, E.unknownPerson(id));
      }
      if (action.type === 'automation' && action.automation_id === self) throw new HttpError(400, E.self);
      if (action.type === 'automation') {
        // Another's automation: one hidden from the caller is unknown; switching one on hands out
        // what it does (docs/automations.md#who).
        const other = await this.lookups.automation(action.automation_id);
        if (other && !reach.everything) {
          if (!(await seesAutomation(other, this.deps.scenes.sightOf(reach), this.lookups)))
            throw new HttpError(400, E.unknownAutomation(action.automation_id));
          if (action.enabled) await this.mayHandOut(caller, other, reach);
        }
      }
    }
    await this.checkCycles(self, rule.actions);
  }

  /** Automations enabling or disabling each other in a circle are refused (docs/automations.md#loops). */
  private async checkCycles(self: string, actions: readonly AutomationAction[]) {
    const targets = (list: readonly AutomationAction[]) =>
      list.flatMap((action) => (action.type === 'automation' ? [action.automation_id] : []));
    const graph = new Map<string, { name: string; next: string[] }>();
    let frontier = targets(actions);
    graph.set(self, { name: '', next: frontier });
    while (frontier.length > 0) {
      const unseen = [...new Set(frontier)].filter((id) => !graph.has(id));
      const known = await this.deps.repository.names(unseen);
      frontier = [];
      for (const id of unseen) {
        const found = known.get(id);
        if (!found) throw new HttpError(400, E.unknownAutomation(id));
        const next = targets(found.actions);
        graph.set(id, { name: found.name, next });
        frontier.push(...next);
      }
    }
    // A path from self back to self.
    const path: string[] = [];
    const seen = new Set<string>();
    const back = (id: string): boolean => {
      for (const next of graph.get(id)?.next ?? []) {
        if (next === self) return true;
        if (seen.has(next)) continue;
        seen.add(next);
        path.push(next);
        if (back(next)) return true;
        path.pop();
      }
      return false;
    };
    if (back(self)) {
      const names = path.map((id) => graph.get(id)?.name ?? id);
      throw new HttpError(400, E.cycle(['this automation', ...names, 'this automation'].join(' → ')));
    }
  }

  private nextRun(triggers: readonly AutomationTrigger[], enabled: boolean): string | null {
    if (!enabled) return null;
    const next = nextRunOf(triggers, this.deps.clock.now(), this.deps.zone, this.deps.location.get());
    return next === null ? null : nowIso(next);
  }

  async create(caller: UserRecord, input: CreateAutomation): Promise<Automation> {
    const id = crypto.randomUUID();
    await this.check(caller, id, input);
    const automation: AutomationRecord = {
      id,
      name: input.name,
      enabled: input.enabled,
      mode: input.mode,
      catch_up: input.catch_up,
      triggers: input.triggers,
      conditions: input.conditions,
      actions: input.actions,
      owner_id: caller.id,
      next_run: this.nextRun(input.triggers, input.enabled),
      last_run_at: null,
      last_run_status: null,
      paused_reason: null,
    };
    await this.deps.repository.insert(automation, nowIso(this.deps.clock.now()));
    await this.changed(id);
    return this.view(automation);
  }

  /**
   * PATCH: the rule's parts replace the stored ones and the caller becomes the owner (it acts with
   * their reach from now on); `enabled` alone changes nothing else.
   */
  async update(caller: UserRecord, id: string, input: UpdateAutomation): Promise<Automation> {
    const stored = await this.seen(caller, id);
    const { enabled, ...rest } = input;
    const ruleChanged = Object.values(rest).some((value) => value !== undefined);
    let automation = stored;
    if (ruleChanged) {
      automation = {
        ...stored,
        ...(rest.name !== undefined ? { name: rest.name } : {}),
        ...(rest.mode !== undefined ? { mode: rest.mode } : {}),
        ...(rest.catch_up !== undefined ? { catch_up: rest.catch_up } : {}),
        ...(rest.triggers !== undefined ? { triggers: rest.triggers } : {}),
        ...(rest.conditions !== undefined ? { conditions: rest.conditions } : {}),
        ...(rest.actions !== undefined ? { actions: rest.actions } : {}),
        owner_id: caller.id,
      };
      await this.check(caller, id, automation);
      automation.next_run = this.nextRun(automation.triggers, automation.enabled);
      if (!(await this.deps.repository.update(automation, nowIso(this.deps.clock.now()))))
        throw new HttpError(404, E.notFound);
      if (rest.triggers !== undefined) await this.deps.repository.dropPendingOf(id);
    }
    if (enabled !== undefined && enabled !== automation.enabled) {
      if (enabled) await this.mayHandOut(caller, automation);
      await this.deps.engine.setEnabled(automation, enabled);
    }
    await this.changed(id);
    return this.view(await this.get(id));
  }

  /** Answers the automation as it was (the activity log names it). */
  async delete(caller: UserRecord, id: string): Promise<AutomationRecord> {
    const automation = await this.seen(caller, id);
    if (!(await this.deps.repository.delete(id))) throw new HttpError(404, E.notFound);
    await this.deps.engine.reload(id);
    this.deps.engine.changed(id, true);
    return automation;
  }

  /**
   * POST /api/automations/{id}/run: the actions now; answers with the run's id (and the automation,
   * which the activity log names).
   */
  async run(
    caller: UserRecord,
    id: string,
  ): Promise<{ answer: { run_id: string | null; status: string }; automation: AutomationRecord }> {
    const automation = await this.seen(caller, id);
    await this.mayHandOut(caller, automation);
    const name = `${caller.firstName} ${caller.lastName}`.trim() || caller.email;
    const outcome = await this.deps.engine.runNow(automation, name);
    const answer = (run_id: string | null, status: string) => ({ answer: { run_id, status }, automation });
    if (outcome.kind === 'running') return answer(outcome.run.id, 'running');
    if (outcome.kind === 'queued') return answer(outcome.runId, 'queued');
    if (outcome.kind === 'recorded' || outcome.kind === 'paused')
      return answer(outcome.runId, outcome.kind === 'paused' ? 'stopped' : outcome.status);
    throw new HttpError(404, E.notFound);
  }

  location(): HouseholdLocation {
    return this.deps.location.view();
  }

  /** PUT /api/automations/location (admins): sun triggers' next fires follow. */
  async setLocation(location: HouseholdLocation): Promise<HouseholdLocation> {
    if ((location.latitude === null) !== (location.longitude === null)) throw new HttpError(400, E.latitude);
    await this.deps.location.set(location);
    for (const automation of await this.deps.repository.all()) {
      if (!automation.triggers.some((trigger) => trigger.type === 'sun')) continue;
      automation.next_run = this.nextRun(automation.triggers, automation.enabled);
      await this.deps.repository.update(automation, nowIso(this.deps.clock.now()));
      await this.changed(automation.id);
    }
    return this.location();
  }

  private async changed(id: string) {
    await this.deps.engine.reload(id);
    this.deps.engine.changed(id, false);
  }
}
