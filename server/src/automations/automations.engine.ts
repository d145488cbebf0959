import type {
  ActivityActor,
  AutomationAction,
  AutomationRunEvent,
  AutomationTrigger,
  Device,
  DeviceState,
  RunStatus,
  RunStep,
  RunTrigger,
} from '@hearth/contracts';
import type { Logger } from 'pino';
import type { ActivityLog } from '../activity/index.js';
import type { DeviceFeed, DeviceGate, DeviceListener, Reach } from '../devicehub/index.js';
import type { ScenesService } from '../scenes/index.js';
import { withTimeout } from '../scenes/index.js';
import { yieldToEventLoop } from '../storage/batches.js';
import { nowIso } from '../storage/columns.js';
import { AUTOMATION_NOTICES, AUTOMATIONS_ERRORS as E } from './automations.errors.js';
import type { Notifier } from './automations.notifier.js';
import { actsOn } from './automations.reach.js';
import type {
  AutomationRecord,
  AutomationsRepository,
  RunRecord,
  StartOutcome,
  StartRequest,
} from './automations.repository.js';
import {
  describeState,
  evaluateConditions,
  type RuleContext,
  stateHolds,
  stateTrips,
} from './automations.rules.js';
import { isScheduled, type Location, nextFire, nextRunOf } from './automations.schedule.js';

/** What the engine needs of the rest of Hearth (docs/automations.md#guarantees). */
export interface AutomationEngineDeps {
  repository: AutomationsRepository;
  feed: Pick<DeviceFeed, 'find' | 'listen' | 'writes'>;
  gate: Pick<DeviceGate, 'commandAs'>;
  scenes: Pick<ScenesService, 'get' | 'send'>;
  /** The owner's reach now (their rules, their role; nothing when they are gone or locked). */
  ownerReach(ownerId: string): Promise<{ reach: Reach; label: string } | undefined>;
  notifier: Notifier;
  activity: ActivityLog;
  clock: { now(): number };
  zone: string;
  location(): Location | null;
  log: Logger;
  /** Tells open pages (this instance's and, through the bus, the others'). */
  publishRun(event: AutomationRunEvent): void;
  publishChange(id: string, removed: boolean): void;
  /** Longest wait for one step (a command, a notification); a scene gets six times this. */
  stepTimeoutMs?: number;
}

/** How long a run is this instance's before another may take it over (renewed at each step). */
const LEASE_MS = 60_000;
/** A scheduled fire this late was missed (Hearth was not running), not merely slow. */
const MISSED_AFTER_MS = 60_000;
/** `catch_up: run_once` runs a fire missed by at most this. */
const CATCH_UP_MS = 3_600_000;
const STEP_TIMEOUT_MS = 10_000;
const POLL_MS = 1000;
const BATCH = 200;

interface Watch {
  automation: AutomationRecord;
  index: number;
  trigger: AutomationTrigger;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * docs/automations.md#guarantees: watches the hub's updates for state, event and availability
 * triggers (on the instance that writes device state, so each update counts once), fires what the
 * schedule says is due (claimed in the database, so once across instances), and runs actions step
 * by step with each step's place persisted, so a wait or a dead instance resumes elsewhere.
 */
export class AutomationEngine implements DeviceListener {
  readonly instance = crypto.randomUUID();
  private automations = new Map<string, AutomationRecord>();
  private watches = new Map<string, Watch[]>();
  /** The last value of each watched property, by device. */
  private values = new Map<string, Map<string, unknown>>();
  /** `for` deadlines waiting, by `automation:index:device` (read again on every tick). */
  private pendingKeys = new Set<string>();
  /**
   * The `for` rows' writes, one after another in the order their crossings were heard: on
   * PostgreSQL two writes on the pool could otherwise swap, and a value that went above and at once
   * below would leave its deadline behind. A beat waits for those queued before it.
   */
  private pendingWrites: Promise<void> = Promise.resolve();
  /** Keys whose write is queued or under way, and what it does (a re-read must not undo it). */
  private readonly pendingIntents = new Map<string, { intent: 'add' | 'drop' }>();
  private readonly executing = new Map<string, Promise<void>>();
  private lane: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private stopListening: (() => void) | undefined;

  constructor(private readonly deps: AutomationEngineDeps) {}

  private now() {
    return this.deps.clock.now();
  }

  // ── what is loaded ────────────────────────────────────────────────────────────────────────────

  async load(): Promise<void> {
    this.index(await this.deps.repository.all());
    await this.readPending();
  }

  /** One automation changed (here or on another instance): read it again. */
  async reload(id: string): Promise<void> {
    const automation = await this.deps.repository.find(id);
    const all = [...this.automations.values()].filter((each) => each.id !== id);
    this.index(automation ? [...all, automation] : all);
  }

  private index(automations: AutomationRecord[]) {
    this.automations = new Map(automations.map((each) => [each.id, each]));
    const watches = new Map<string, Watch[]>();
    const values = new Map<string, Map<string, unknown>>();
    for (const automation of automations) {
      if (!automation.enabled) continue;
      automation.triggers.forEach((trigger, index) => {
        if (trigger.type !== 'state' && trigger.type !== 'event' && trigger.type !== 'availability') return;
        const list = watches.get(trigger.device_id) ?? [];
        list.push({ automation, index, trigger });
        watches.set(trigger.device_id, list);
        if (trigger.type !== 'state') return;
        // A property followed already keeps its last value; one followed from now starts from the hub's.
        const known = values.get(trigger.device_id) ?? new Map<string, unknown>();
        values.set(trigger.device_id, known);
        const before = this.values.get(trigger.device_id);
        known.set(
          trigger.property,
          before?.has(trigger.property)
            ? before.get(trigger.property)
            : this.deps.feed.find(trigger.device_id)?.state[trigger.property],
        );
      });
    }
    this.watches = watches;
    this.values = values;
  }

  private async readPending() {
    const rows = await this.deps.repository.pending();
    const keys = new Set(rows.map((row) => `${row.automation_id}:${row.trigger_index}:${row.device_id}`));
    for (const [key, { intent }] of this.pendingIntents) {
      if (intent === 'add') keys.add(key);
      else keys.delete(key);
    }
    this.pendingKeys = keys;
  }

  /** Queues a `for` row's write after the ones before it (see pendingWrites). */
  private writePending(key: string, intent: 'add' | 'drop', write: () => Promise<void>) {
    const mark = { intent };
    this.pendingIntents.set(key, mark);
    const done = () => {
      if (this.pendingIntents.get(key) === mark) this.pendingIntents.delete(key);
    };
    this.pendingWrites = this.pendingWrites
      .then(write)
      .catch((error) => this.deps.log.warn({ err: error }, 'an automation task failed'))
      .finally(done);
  }

  // ── the hub's listener: synchronous, on the stream's path ─────────────────────────────────────

  stateReported(device: Device, state: DeviceState, retained: boolean): void {
    const watches = this.watches.get(device.id);
    if (!watches || this.closed) return;
    const known = this.values.get(device.id);
    // On the stream's path for every message of a watched device: the followed values are compared
    // with the message first and updated after, with nothing allocated for a message that trips nothing.
    // A replay of what the bus kept is not news; one instance acts on each update.
    if (!retained && this.deps.feed.writes()) this.tripped(device, state, watches, known);
    if (known) for (const key of known.keys()) if (Object.hasOwn(state, key)) known.set(key, state[key]);
  }

  private tripped(
    device: Device,
    state: DeviceState,
    watches: Watch[],
    known: Map<string, unknown> | undefined,
  ) {
    for (const watch of watches) {
      const { trigger } = watch;
      if (trigger.type === 'event') {
        if ('action' in state && typeof state.action === 'string' && state.action === trigger.value)
          this.trigger(watch.automation, { type: 'event', description: `${device.name} ${state.action}` });
      } else if (
        trigger.type === 'state' &&
        known?.has(trigger.property) &&
        Object.hasOwn(state, trigger.property)
      ) {
        const before = known.get(trigger.property);
        const after = state[trigger.property];
        if (trigger.for_seconds) this.follow(watch, device, before, after);
        else if (stateTrips(trigger, before, after))
          this.trigger(watch.automation, {
            type: 'state',
            description: describeState(trigger, device, after),
          });
      }
    }
  }

  onlineChanged(device: Device, online: boolean, first: boolean): void {
    if (first || this.closed || !this.deps.feed.writes()) return;
    for (const watch of this.watches.get(device.id) ?? []) {
      if (watch.trigger.type === 'availability' && watch.trigger.online === online)
        this.trigger(watch.automation, {
          type: 'availability',
          description: `${device.name} ${online ? 'came back online' : 'went offline'}`,
        });
    }
  }

  /** A state trigger held `for` a while: its deadline starts when the value arrives, ends when it leaves. */
  private follow(watch: Watch, device: Device, before: unknown, after: unknown) {
    const trigger = watch.trigger as Extract<AutomationTrigger, { type: 'state' }>;
    const key = `${watch.automation.id}:${watch.index}:${device.id}`;
    const holds = stateHolds(trigger, after);
    if (
      holds &&
      !this.pendingKeys.has(key) &&
      stateTrips({ ...trigger, for_seconds: undefined }, before, after)
    ) {
      this.pendingKeys.add(key);
      const now = this.now();
      const due = now + (trigger.for_seconds ?? 0) * 1000;
      this.writePending(key, 'add', async () => {
        await this.deps.repository.addPending({
          automation_id: watch.automation.id,
          trigger_index: watch.index,
          device_id: device.id,
          since: nowIso(now),
          due_at: nowIso(due),
          description: describeState(trigger, device, after, trigger.for_seconds),
        });
        this.wake(due);
      });
    } else if (!holds && this.pendingKeys.delete(key)) {
      this.writePending(key, 'drop', () =>
        this.deps.repository.dropPending(watch.automation.id, watch.index, device.id),
      );
    }
  }

  private background(task: () => Promise<void>) {
    task().catch((error) => this.deps.log.warn({ err: error }, 'an automation task failed'));
  }

  // ── starting runs ─────────────────────────────────────────────────────────────────────────────

  private context(): RuleContext {
    return {
      now: this.now(),
      zone: this.deps.zone,
      location: this.deps.location(),
      device: (id) => this.deps.feed.find(id),
    };
  }

  /** A trigger tripped: conditions now, then the run (not awaited: the caller is the stream). */
  private trigger(automation: AutomationRecord, trigger: RunTrigger) {
    const { passed, steps } = evaluateConditions(automation.conditions, this.context());
    this.background(async () => {
      // The run starts in a task of its own: better-sqlite3 answers synchronously, so its claims and
      // trace would otherwise run inside the stream's message, before its frames leave.
      await yieldToEventLoop();
      if (this.closed) return;
      await this.begin({ automationId: automation.id, trigger, steps, passed, counted: true });
    });
  }

  /** Records a run's start (claims, mode, loop breaker) and runs it if it may run now. */
  async begin(request: Omit<StartRequest, 'now' | 'instance' | 'leaseMs'>): Promise<StartOutcome> {
    const outcome = await this.deps.repository.start({
      ...request,
      now: this.now(),
      instance: this.instance,
      leaseMs: LEASE_MS,
    });
    for (const id of 'stopped' in outcome ? outcome.stopped : [])
      this.deps.publishRun({ automation_id: request.automationId, run_id: id, status: 'stopped' });
    switch (outcome.kind) {
      case 'running':
        this.deps.publishRun({
          automation_id: request.automationId,
          run_id: outcome.run.id,
          status: 'running',
        });
        this.execute(outcome.run);
        break;
      case 'queued':
        this.deps.publishRun({
          automation_id: request.automationId,
          run_id: outcome.runId,
          status: 'queued',
        });
        break;
      case 'recorded':
        this.deps.publishRun({
          automation_id: request.automationId,
          run_id: outcome.runId,
          status: outcome.status,
        });
        break;
      case 'paused':
        await this.paused(request.automationId, outcome.name, outcome.runId);
        break;
      default:
    }
    return outcome;
  }

  /** The loop breaker paused it: admins hear of it, open pages show it. */
  private async paused(automationId: string, name: string, runId: string) {
    await this.reload(automationId);
    this.deps.publishChange(automationId, false);
    this.deps.publishRun({ automation_id: automationId, run_id: runId, status: 'stopped' });
    this.deps.log.warn({ automation: automationId }, 'automation paused by the loop breaker');
    const automation = await this.deps.repository.find(automationId);
    const owner = automation && (await this.deps.ownerReach(automation.owner_id));
    await this.deps.notifier
      .notify({
        id: `automation-paused:${runId}`,
        to: 'admins',
        title: AUTOMATION_NOTICES.pausedTitle(name),
        body: AUTOMATION_NOTICES.pausedBody,
        automation: {
          id: automationId,
          name,
          owner: { id: automation?.owner_id ?? '', label: owner?.label ?? '' },
        },
      })
      .catch((error) => this.deps.log.warn({ err: error }, 'telling admins of a paused automation failed'));
  }

  /** Run now (docs/automations.md#api): the actions, whatever the triggers and conditions say. */
  runNow(automation: AutomationRecord, by: string): Promise<StartOutcome> {
    return this.begin({
      automationId: automation.id,
      trigger: { type: 'manual', description: `Run now by ${by}` },
      steps: [],
      passed: true,
      counted: true,
      manual: true,
    });
  }

  /** Hearth starting: each automation with a start trigger runs once per start (instances starting in the same minute agree). */
  async started(): Promise<void> {
    const minute = nowIso(Math.floor(this.now() / 60_000) * 60_000);
    for (const automation of this.automations.values()) {
      if (!automation.enabled || !automation.triggers.some((each) => each.type === 'start')) continue;
      const { passed, steps } = evaluateConditions(automation.conditions, this.context());
      await this.begin({
        automationId: automation.id,
        trigger: { type: 'start', description: 'Hearth started' },
        steps,
        passed,
        counted: true,
        claim: { fireAt: `start:${minute}`, nextRun: automation.next_run },
      }).catch((error) =>
        this.deps.log.warn({ err: error, automation: automation.id }, 'a start trigger failed'),
      );
    }
  }

  // ── time ──────────────────────────────────────────────────────────────────────────────────────

  /** One beat: scheduled fires that are due, `for` deadlines that came, waits to resume. */
  tick(): Promise<void> {
    const beat = this.lane.then(() => this.beat());
    this.lane = beat.catch((error) => this.deps.log.warn({ err: error }, 'the automation beat failed'));
    return beat;
  }

  /**
   * A beat a timer asked for: its failure (the database away) is logged by the lane and the next
   * beat tries again; left to reject, nobody handled it and Node ended Hearth.
   */
  private timedTick(): Promise<void> {
    return this.tick().catch(() => {});
  }

  /** Resolves once the runs started so far have stopped or are waiting (tests). */
  async settled(): Promise<void> {
    while (this.executing.size > 0) await Promise.all(this.executing.values());
  }

  private async beat() {
    if (this.closed) return;
    const now = this.now();
    const at = nowIso(now);
    const { repository } = this.deps;
    for (const automation of await repository.due(at, BATCH)) await this.fire(automation, now);
    // The crossings heard before this beat are in the database before it reads the deadlines.
    await this.pendingWrites;
    await this.readPending();
    for (const row of await repository.duePending(at, BATCH)) {
      const automation =
        this.automations.get(row.automation_id) ?? (await repository.find(row.automation_id));
      if (!automation?.enabled) {
        await repository.dropPending(row.automation_id, row.trigger_index, row.device_id);
        continue;
      }
      const { passed, steps } = evaluateConditions(automation.conditions, this.context());
      await this.begin({
        automationId: automation.id,
        trigger: { type: 'state', description: row.description },
        steps,
        passed,
        counted: true,
        pendingId: row.id,
      });
      this.pendingKeys.delete(`${row.automation_id}:${row.trigger_index}:${row.device_id}`);
    }
    for (const run of await repository.resumable(at, BATCH)) {
      if (this.executing.has(run.id)) continue;
      const taken = await repository.takeOver(run, this.instance, nowIso(now + LEASE_MS));
      if (taken) this.execute(taken);
    }
  }

  /** A scheduled fire that is due: claimed, then run, missed or caught up (docs/automations.md#restarts). */
  private async fire(automation: AutomationRecord, now: number) {
    const { zone } = this.deps;
    const location = this.deps.location();
    const stored = automation.next_run as string;
    const first = Date.parse(stored);
    const nextRun = nextRunOf(automation.triggers, now, zone, location);
    const claim = { fireAt: stored, nextRun: nextRun === null ? null : nowIso(nextRun) };
    const what = (at: number): RunTrigger => {
      const which = automation.triggers.find(
        (each) => isScheduled(each) && nextFire(each, at - 1, zone, location) === at,
      );
      return { type: which?.type ?? 'time', description: describeScheduled(which), fire_at: nowIso(at) };
    };
    if (now - first <= MISSED_AFTER_MS) {
      const { passed, steps } = evaluateConditions(automation.conditions, this.context());
      await this.begin({
        automationId: automation.id,
        trigger: what(first),
        steps,
        passed,
        counted: false,
        claim,
      });
      return;
    }
    // Missed while Hearth was down: every fire from the stored one until now.
    const missed: number[] = [first];
    for (let at = first; missed.length < 10_000; ) {
      const next = nextRunOf(automation.triggers, at, zone, location);
      if (next === null || next > now) break;
      missed.push(next);
      at = next;
    }
    const latest = missed[missed.length - 1] as number;
    const catchUp = automation.catch_up === 'run_once' && now - latest <= CATCH_UP_MS;
    const count = catchUp ? missed.length - 1 : missed.length;
    const caughtUp = async (claimed?: typeof claim) => {
      const { passed, steps } = evaluateConditions(automation.conditions, this.context());
      const trigger = what(latest);
      await this.begin({
        automationId: automation.id,
        trigger: { ...trigger, description: `${trigger.description} (caught up)` },
        steps,
        passed,
        counted: false,
        ...(claimed ? { claim: claimed } : {}),
      });
    };
    if (count === 0) return caughtUp(claim);
    const outcome = await this.begin({
      automationId: automation.id,
      trigger: what(first),
      steps: [],
      passed: true,
      counted: false,
      claim,
      missed: E.missed(count),
    });
    // The claimant runs the latest missed fire once.
    if (outcome.kind !== 'elsewhere' && catchUp) await caughtUp();
  }

  /** Makes sure a beat comes by `at` (a short wait, a `for`). */
  wake(at: number) {
    if (this.closed) return;
    const delay = Math.max(0, at - this.now());
    if (delay >= POLL_MS) return;
    setTimeout(() => void this.timedTick(), delay).unref();
  }

  start() {
    this.stopListening = this.deps.feed.listen(this);
    const loop = () => {
      if (this.closed) return;
      void this.timedTick().finally(() => {
        if (this.closed) return;
        this.timer = setTimeout(loop, POLL_MS);
        this.timer.unref();
      });
    };
    loop();
  }

  async close() {
    this.closed = true;
    this.stopListening?.();
    clearTimeout(this.timer);
    await this.lane;
    await this.pendingWrites;
    await this.settled();
  }

  // ── running ───────────────────────────────────────────────────────────────────────────────────

  private execute(run: RunRecord) {
    const done = this.steps(run)
      .catch((error) => this.deps.log.error({ err: error, run: run.id }, 'an automation run failed'))
      .finally(() => this.executing.delete(run.id));
    this.executing.set(run.id, done);
  }

  /** Runs the actions from the run's place: each step's result is stored before the next. */
  private async steps(start: RunRecord): Promise<void> {
    const { repository } = this.deps;
    let run: RunRecord | undefined = start;
    // The cached rule when this instance has it (a trigger's run sends its command sooner).
    const automation = this.automations.get(run.automation_id) ?? (await repository.find(run.automation_id));
    if (!automation) return;
    const lease = () => ({ owner: this.instance, until: nowIso(this.now() + LEASE_MS) });
    let ended: RunStep[] | undefined;
    while (run && run.position < automation.actions.length && !this.closed) {
      const index = run.position;
      const action = automation.actions[index] as AutomationAction;
      if (action.type === 'wait') {
        if (run.resume_at === null) {
          // The deadline is stored: whichever instance is up then resumes it.
          const due = this.now() + action.seconds * 1000;
          run = await repository.progress(run, {
            status: 'waiting',
            steps: run.steps,
            position: index,
            resume_at: nowIso(due),
            lease: null,
            finished_at: null,
          });
          if (run)
            this.deps.publishRun({ automation_id: run.automation_id, run_id: run.id, status: 'waiting' });
          this.wake(due);
          return;
        }
        const step: RunStep = {
          kind: 'wait',
          index,
          at: nowIso(this.now()),
          result: `waited ${action.seconds} s`,
        };
        run = await repository.progress(run, {
          status: 'running',
          steps: [...run.steps, step],
          position: index + 1,
          resume_at: null,
          lease: lease(),
          finished_at: null,
        });
        continue;
      }
      // Each action in a task of its own: better-sqlite3 answers synchronously, and the run's claim,
      // the owner's reach and the step's record would otherwise hold the stream's messages back as one.
      await yieldToEventLoop();
      if (this.closed) return;
      const step = await this.perform(automation, action, index);
      const steps = [...run.steps, step];
      // The last action's step is stored with the run's end, in one write.
      if (index + 1 === automation.actions.length) {
        ended = steps;
        break;
      }
      run = await repository.progress(run, {
        status: 'running',
        steps,
        position: index + 1,
        resume_at: null,
        lease: lease(),
        finished_at: null,
      });
    }
    if (!run || (this.closed && !ended)) return;
    if (!ended) await yieldToEventLoop();
    const steps = ended ?? run.steps;
    const failed = steps.some((step) => step.error !== undefined && step.kind !== 'condition');
    const status: RunStatus = failed ? 'failed' : 'done';
    const finished = await repository.progress(run, {
      status,
      steps,
      position: ended ? run.position + 1 : run.position,
      resume_at: null,
      lease: null,
      finished_at: nowIso(this.now()),
    });
    if (!finished) return;
    // Pages read the list again on a run's news (its last run); the rule itself did not change.
    this.deps.publishRun({ automation_id: run.automation_id, run_id: run.id, status });
    await repository.prune(run.automation_id);
    const next = await repository.nextQueued(run.automation_id, this.now(), this.instance, LEASE_MS);
    if (next) {
      this.deps.publishRun({ automation_id: next.automation_id, run_id: next.id, status: 'running' });
      await this.steps(next);
    }
  }

  /** One action, within its time: its step in the trace. */
  private async perform(
    automation: AutomationRecord,
    action: AutomationAction,
    index: number,
  ): Promise<RunStep> {
    const timeout = this.deps.stepTimeoutMs ?? STEP_TIMEOUT_MS;
    const step = (result: string, error?: string): RunStep => ({
      kind: action.type,
      index,
      at: nowIso(this.now()),
      result,
      ...(error !== undefined ? { error } : {}),
    });
    try {
      switch (action.type) {
        case 'device': {
          if (!this.deps.feed.find(action.device_id)) return step('failed', E.deviceRemoved);
          const as = await this.actingFor(automation);
          if (!as) return step('failed', E.ownerGone);
          await withTimeout(
            this.deps.gate.commandAs(as.reach, as.actor, action.device_id, { state: action.state }),
            timeout,
            E.stepTimeout(Math.round(timeout / 1000)),
          );
          return step('sent');
        }
        case 'scene': {
          const scene = await this.deps.scenes.get(action.scene_id).catch(() => undefined);
          if (!scene) return step('failed', E.sceneRemoved);
          const as = await this.actingFor(automation);
          if (!as) return step('failed', E.ownerGone);
          const results = await withTimeout(
            this.deps.scenes.send({ actor: as.actor, reach: as.reach }, scene.targets),
            timeout * 6 + scene.targets.length * 100,
            E.stepTimeout(Math.round((timeout * 6 + scene.targets.length * 100) / 1000)),
          );
          const failed = results.filter((each) => each.status === 'failed');
          const result = `sent ${results.length - failed.length} of ${results.length}`;
          if (failed.length === 0) return step(result);
          return step(
            result,
            failed
              .slice(0, 3)
              .map((each) => `${each.device_id}: ${each.error}`)
              .join('; '),
          );
        }
        case 'notify': {
          const owner = await this.deps.ownerReach(automation.owner_id);
          await withTimeout(
            this.deps.notifier.notify({
              id: `automation:${automation.id}:${index}:${this.now()}`,
              to: action.to,
              title: action.title,
              body: action.body,
              automation: {
                id: automation.id,
                name: automation.name,
                owner: { id: automation.owner_id, label: owner?.label ?? '' },
              },
            }),
            timeout,
            E.stepTimeout(Math.round(timeout / 1000)),
          );
          const as = await this.actingFor(automation);
          if (as)
            this.deps.activity.record({
              actor: as.actor,
              kind: 'automation.notify',
              result: 'ok',
              detail: {
                title: action.title,
                to: action.to === 'household' ? 'household' : action.to.slice(0, 50),
              },
            });
          return step('notified');
        }
        case 'automation': {
          const as = await this.actingFor(automation);
          const target = await this.deps.repository.find(action.automation_id);
          if (!target) return step('failed', E.automationRemoved);
          if (action.enabled && target.owner_id !== automation.owner_id) {
            // Switching another's on hands out what it does (docs/automations.md#who): its owner's
            // reach, read now, must control all of it, as when the rule was saved.
            if (!as) return step('failed', E.ownerGone);
            const beyond = await this.beyond(as.reach, target);
            if (beyond) return step('failed', E.viewOnly(beyond));
          }
          await this.setEnabled(target, action.enabled);
          if (as)
            this.deps.activity.record({
              actor: as.actor,
              kind: 'automation.enable',
              result: 'ok',
              detail: { automation_id: target.id, name: target.name, enabled: action.enabled },
            });
          return step(action.enabled ? 'enabled' : 'disabled');
        }
        case 'wait':
          return step('waited');
      }
    } catch (error) {
      return step('failed', messageOf(error));
    }
  }

  /** The name of the first device the automation acts on that `reach` does not control. */
  private async beyond(reach: Reach, automation: AutomationRecord): Promise<string | undefined> {
    if (reach.everything) return undefined;
    const lookups = {
      automation: (id: string) => this.deps.repository.find(id),
      scene: (id: string) => this.deps.scenes.get(id).catch(() => undefined),
    };
    for (const id of await actsOn(automation, lookups)) {
      const device = this.deps.feed.find(id);
      if (device && reach.levelOf(id) !== 'control') return device.name;
    }
    return undefined;
  }

  /** Who the automation acts as now: its owner's reach, checked at every step that needs it. */
  private async actingFor(
    automation: AutomationRecord,
  ): Promise<{ actor: ActivityActor; reach: Reach } | undefined> {
    const owner = await this.deps.ownerReach(automation.owner_id);
    if (!owner) return undefined;
    return { actor: automationActor(automation, owner.label), reach: owner.reach };
  }

  /** Tells open pages an automation changed (or went). */
  changed(id: string, removed: boolean) {
    this.deps.publishChange(id, removed);
  }

  /** Enables or disables an automation: its next fire, its runs stopped when disabled, pages told. */
  async setEnabled(automation: AutomationRecord, enabled: boolean): Promise<void> {
    const now = this.now();
    const next = enabled ? nextRunOf(automation.triggers, now, this.deps.zone, this.deps.location()) : null;
    await this.deps.repository.setEnabled(
      automation.id,
      enabled,
      next === null ? null : nowIso(next),
      nowIso(now),
    );
    if (!enabled) {
      await this.deps.repository.dropPendingOf(automation.id);
      for (const id of await this.deps.repository.stopRuns(automation.id, E.disabled, nowIso(now)))
        this.deps.publishRun({ automation_id: automation.id, run_id: id, status: 'stopped' });
    }
    await this.reload(automation.id);
    this.deps.publishChange(automation.id, false);
  }
}

/** docs/activity.md#entries: an automation as actor, acting for its owner. */
export const automationActor = (
  automation: Pick<AutomationRecord, 'id' | 'name' | 'owner_id'>,
  ownerLabel: string,
): ActivityActor => ({
  type: 'automation',
  id: automation.id,
  label: automation.name,
  owner: { id: automation.owner_id, label: ownerLabel },
});

function describeScheduled(trigger: AutomationTrigger | undefined): string {
  switch (trigger?.type) {
    case 'time':
      return `It is ${trigger.at}`;
    case 'cron':
      return `Schedule ${trigger.expression}`;
    case 'sun': {
      const offset = trigger.offset_minutes ?? 0;
      return offset === 0
        ? `At ${trigger.event}`
        : `${Math.abs(offset)} min ${offset < 0 ? 'before' : 'after'} ${trigger.event}`;
    }
    default:
      return 'Scheduled';
  }
}
