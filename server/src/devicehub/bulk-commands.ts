import {
  type ActivityActor,
  COMMAND_CONFIRM_MS,
  type DeviceBulkCommand,
  type DeviceBulkCommandAnswer,
  type DeviceBulkCommandResult,
  type DeviceCommandRequest,
  type DeviceState,
} from '@hearth/contracts';
import type { ActivityLog, ActivityOrigin, ActivityRecord } from '../activity/index.js';
import { HttpError } from '../http/errors.js';
import { Confirmation, expectationsOf } from './command-confirmation.js';
import { DevicehubMessages as M } from './devicehub.errors.js';
import type { DeviceHubService } from './devicehub.service.js';
import type { Reach } from './reach.js';

/** What the bulk call needs of the hub. */
export type BulkHub = Pick<DeviceHubService, 'reachable' | 'send' | 'about' | 'listen'>;

export interface BulkCaller {
  actor: ActivityActor;
  origin?: ActivityOrigin;
  reach: Reach;
  /** An admin: may install a device's firmware update. */
  admin?: boolean;
}

/** One command on its way: what came of it, and what the activity entry says. */
interface Run {
  command: DeviceBulkCommand;
  result: DeviceBulkCommandResult;
  /** What the adapter sent (the entry records it), set once it went out. */
  sent?: Record<string, unknown>;
  confirmation?: Confirmation;
}

const requestOf = ({ input, state }: DeviceBulkCommand): DeviceCommandRequest => ({
  ...(input !== undefined ? { input } : {}),
  ...(state !== undefined ? { state } : {}),
});

/**
 * docs/devicehub.md#commands-to-several-devices: POST /api/devicehub/commands. Each device the
 * caller may control and that is online gets its command; a device counts as done only when a
 * state report after the command says what was asked (Zigbee2MQTT echoes the new state), within
 * `confirmMs`. Offline devices are not sent to. Each command leaves one `device.command` entry
 * with the same outcome.
 */
export class BulkCommands {
  /** Device id → the confirmations waiting for its next reports. */
  private readonly waiting = new Map<string, Set<Confirmation>>();
  /** Confirmation → resolves its run's wait when done. */
  private readonly settle = new Map<Confirmation, () => void>();

  constructor(
    private readonly hub: BulkHub,
    private readonly activity: ActivityLog,
    private readonly confirmMs = COMMAND_CONFIRM_MS,
  ) {
    hub.listen({ stateReported: (device, state, retained) => this.reported(device.id, state, retained) });
  }

  async run(caller: BulkCaller, commands: DeviceBulkCommand[]): Promise<DeviceBulkCommandAnswer> {
    const runs = await Promise.all(commands.map((command) => this.start(caller, command)));
    const sent = runs.filter((run) => run.confirmation);
    await this.confirmAll(sent);
    for (const run of sent) {
      const confirmation = run.confirmation as Confirmation;
      run.result.outcome = confirmation.done ? 'confirmed' : 'not_responding';
      this.forget(run.command.device_id, confirmation);
    }
    for (const run of runs) this.record(caller, run);
    const confirmed = runs.filter((run) => run.result.outcome === 'confirmed').length;
    return { results: runs.map((run) => run.result), confirmed, total: runs.length };
  }

  /** Checks the caller's reach and the device's availability, then sends; never throws. */
  private async start(caller: BulkCaller, command: DeviceBulkCommand): Promise<Run> {
    const { device_id } = command;
    const request = requestOf(command);
    let name: string | undefined;
    let confirmation: Confirmation | undefined;
    try {
      const device = this.hub.reachable(device_id, caller.reach);
      name = device.name;
      if (!device.online) return { command, result: { device_id, name, outcome: 'offline' } };
      // Keys the device does not take find no capability, so they expect nothing. Waiting starts
      // before sending: the echo may come back before the send resolves.
      confirmation = new Confirmation(expectationsOf(device.capabilities, commandTerms(request)));
      this.wait(device_id, confirmation);
      const { sent } = await this.hub.send(device_id, request, undefined, caller.admin);
      return {
        command,
        result: { device_id, name, outcome: 'not_responding' },
        confirmation,
        ...(sent ? { sent } : {}),
      };
    } catch (error) {
      if (confirmation) this.forget(device_id, confirmation);
      const refused = error instanceof HttpError && error.statusCode < 500;
      return {
        command,
        result: {
          device_id,
          ...(name !== undefined ? { name } : {}),
          outcome: refused ? 'refused' : 'failed',
          error: error instanceof HttpError ? error.message : 'Internal error',
        },
      };
    }
  }

  private wait(deviceId: string, confirmation: Confirmation) {
    const set = this.waiting.get(deviceId) ?? new Set<Confirmation>();
    set.add(confirmation);
    this.waiting.set(deviceId, set);
  }

  private forget(deviceId: string, confirmation: Confirmation) {
    const set = this.waiting.get(deviceId);
    set?.delete(confirmation);
    if (set?.size === 0) this.waiting.delete(deviceId);
    this.settle.delete(confirmation);
  }

  /** Resolves when every run is confirmed, or when the wait is over. */
  private confirmAll(runs: Run[]): Promise<void> {
    const open = runs.filter((run) => !run.confirmation?.done);
    if (open.length === 0) return Promise.resolve();
    return new Promise((resolve) => {
      let left = open.length;
      const timer = setTimeout(resolve, this.confirmMs);
      for (const run of open) {
        this.settle.set(run.confirmation as Confirmation, () => {
          if (--left === 0) {
            clearTimeout(timer);
            resolve();
          }
        });
      }
    });
  }

  private reported(deviceId: string, state: DeviceState, retained: boolean) {
    // A retained report is what the broker kept from before: it says nothing about the command.
    if (retained) return;
    for (const confirmation of this.waiting.get(deviceId) ?? []) {
      const wasDone = confirmation.done;
      if (confirmation.report(state) && !wasDone) this.settle.get(confirmation)?.();
    }
  }

  private record(caller: BulkCaller, run: Run) {
    const about = this.hub.about(run.command.device_id);
    const { outcome, error } = run.result;
    const asked = commandTerms(requestOf(run.command));
    const reason = outcome === 'not_responding' ? M.notResponding : outcome === 'offline' ? M.offline : error;
    const entry: ActivityRecord = {
      actor: caller.actor,
      ...caller.origin,
      kind: 'device.command',
      ...about,
      result: outcome === 'confirmed' ? 'ok' : outcome === 'refused' ? 'refused' : 'failed',
      detail: {
        ...about.detail,
        state: run.sent ?? asked,
        outcome,
        ...(reason ? { reason } : {}),
      },
    };
    this.activity.record(entry);
  }
}

/** A command in the terms the adapters report what they sent: the input's value under its id, then `state`. */
function commandTerms(request: DeviceCommandRequest): Record<string, unknown> {
  return {
    ...(request.input ? { [request.input.id]: request.input.value } : {}),
    ...request.state,
  };
}
