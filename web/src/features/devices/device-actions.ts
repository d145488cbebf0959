import type {
  DeviceBulkCommand,
  DeviceBulkCommandAnswer,
  DeviceCallResult,
  DeviceRenameCommand,
  DeviceSetCommand,
} from '@hearth/contracts';
import type { ApiResult } from '../../shared/api/client.js';
import type { PlannedCommand } from '../rooms/room-actions.js';
import type { HubAnswer } from './api/devices.api.js';
import { answerError } from './api/devices.api.js';
import type { CommandWatch } from './command-watch.js';
import { MESSAGES } from './devices.messages.js';
import type { DeviceCommand } from './model/commands.js';
import { CommandConfirmation, commandChecks } from './model/confirm.js';
import type { DeviceView, Json } from './model/device.types.js';
import type { DeviceStore } from './store/device-store.js';

export interface ActionDeps {
  store: DeviceStore;
  /** The stream's publish; rejects when it is down. */
  publish: ((kind: 'set' | 'rename', payload: Json, notConnected: string) => Promise<void>) | null;
  streamConnected: () => boolean;
  accessToken: () => string | null;
  postCommand(id: string, command: DeviceCommand): Promise<ApiResult<HubAnswer>>;
  renameDevice(id: string, name: string): Promise<ApiResult<HubAnswer>>;
  postBulk(commands: DeviceBulkCommand[]): Promise<ApiResult<DeviceCallResult<DeviceBulkCommandAnswer>>>;
  /** Follows each command sent until the device's state confirms it (docs/screens.md#device-tile). */
  watch?: Pick<CommandWatch, 'watch'>;
}

const COMMAND_ERRORS = new Set<string>();

/**
 * docs/api.md#devices/docs/strings.md#devices: a command goes over the stream when it is connected, else over REST.
 * Pending shows on the tile until the send succeeds or fails; failures land in the page error card.
 */
export async function sendCommand(deps: ActionDeps, device: DeviceView, command: DeviceCommand | null) {
  const { store } = deps;
  store.setFailure(device.key, null);
  const { error, byDevice } = await deliver(deps, device, command);
  // docs/screens.md#devices-of-other-sources: the device refused it or did not answer (502, 504): on its tile.
  if (error && byDevice) store.setFailure(device.key, error);
  else if (error) {
    COMMAND_ERRORS.add(error);
    store.setStatus({ error });
  } else {
    clearCommandError(store);
    if (command) deps.watch?.watch(device, command);
  }
}

/**
 * The command path of sendCommand (stream first, else REST, pending on the tile meanwhile),
 * resolving with the failure's message or null, without touching the page's error card: room
 * actions send many and summarise their failures themselves.
 */
export async function deliverCommand(
  deps: ActionDeps,
  device: DeviceView,
  command: DeviceCommand | null,
): Promise<string | null> {
  return (await deliver(deps, device, command)).error;
}

/** The device's own answers to a command it refused (502) or never answered (504): docs/api.md#devices. */
const DEVICE_FAILURES = new Set([502, 504]);

async function deliver(
  deps: ActionDeps,
  device: DeviceView,
  command: DeviceCommand | null,
): Promise<{ error: string | null; byDevice: boolean }> {
  const { store } = deps;
  const fail = (error: string | null, byDevice = false) => ({ error, byDevice });
  if (!command) return fail(MESSAGES.missingCommand);
  if (typeof command !== 'object' || typeof command.state !== 'object') return fail(MESSAGES.invalidCommand);
  if (!device.id) return fail(MESSAGES.missingDeviceId);
  store.setPending(device.key, true);
  try {
    if (deps.publish && deps.streamConnected()) {
      try {
        await deps.publish(
          'set',
          { device_id: device.id, state: command.state } satisfies DeviceSetCommand,
          MESSAGES.notConnectedCommands,
        );
        return fail(null);
      } catch {
        // fall through to REST
      }
    }
    const result = await deps.postCommand(device.id, command);
    if (result.status === 0) return fail(MESSAGES.notConnectedCommands);
    return fail(answerError(result, MESSAGES.commandFailed), DEVICE_FAILURES.has(result.status));
  } finally {
    store.setPending(device.key, false);
  }
}

/**
 * docs/screens.md#room-actions: the plan in one `POST /api/devicehub/commands`, which answers once
 * every device's state confirmed its command (or after 5 s). Meanwhile each planned device is
 * pending, and `onConfirmed` hears of each one whose state message confirms it; devices the
 * answer says did not respond read "Not responding". Resolves with the answer or the failure's message.
 */
export async function sendAll(
  deps: ActionDeps,
  plan: PlannedCommand[],
  onConfirmed: (device: DeviceView) => void = () => {},
): Promise<DeviceBulkCommandAnswer | string> {
  const { store } = deps;
  const sent = plan.filter(({ device }) => device.id);
  const following = new Map(
    sent.map(({ device, command }) => [
      device.key,
      { device, confirmation: new CommandConfirmation(commandChecks(device, command)) },
    ]),
  );
  const unlisten = store.listenState((key, state) => {
    const followed = following.get(key);
    if (!followed?.confirmation.report(state)) return;
    following.delete(key);
    store.setPending(key, false);
    onConfirmed(followed.device);
  });
  for (const { device } of sent) store.setPending(device.key, true);
  try {
    const result = await deps.postBulk(
      sent.map(({ device, command }) => ({ device_id: device.id as string, ...command })),
    );
    const answer = result.success ? result.data?.data : null;
    if (!answer)
      return result.status === 0
        ? MESSAGES.notConnectedCommands
        : result.data?.error || result.error || MESSAGES.commandFailed;
    answer.results.forEach((outcome, index) => {
      const device = sent[index]?.device;
      if (device && outcome.outcome === 'not_responding') store.setNotResponding(device.key, true);
    });
    return answer;
  } finally {
    unlisten();
    for (const { device } of sent) store.setPending(device.key, false);
  }
}

function clearCommandError(store: DeviceStore) {
  const error = store.getStatus().error;
  if (error && COMMAND_ERRORS.has(error)) store.setStatus({ error: null });
}

export type RenameOutcome =
  | { status: 'unchanged' }
  | { status: 'queued' | 'saved'; device_id: string; name: string };

/**
 * docs/screens.md#rename/docs/strings.md#validation-rules rename: trimmed, empty refused, unchanged not sent; over the stream first
 * (treated as queued), then HTTP with the access token. Throws with the tile's error text.
 */
export async function renameDevice(
  deps: ActionDeps,
  device: DeviceView,
  wanted: string,
): Promise<RenameOutcome> {
  const name = wanted.trim();
  if (!name) throw new Error(MESSAGES.emptyName);
  if (name === device.displayName.trim() || name === device.name?.trim()) return { status: 'unchanged' };
  if (!device.id) throw new Error(MESSAGES.renameNotReady);
  const id = device.id;
  deps.store.setPending(device.key, true);
  try {
    if (deps.publish && deps.streamConnected()) {
      try {
        await deps.publish(
          'rename',
          { device_id: id, name } satisfies DeviceRenameCommand,
          MESSAGES.notConnectedRename,
        );
        deps.store.upsert({ id, name });
        return { status: 'queued', device_id: id, name };
      } catch {
        // fall back to HTTP
      }
    }
    if (!deps.accessToken()) throw new Error(MESSAGES.renameNeedsAuth);
    const result = await deps.renameDevice(id, name);
    const error = answerError(result, MESSAGES.renameFailed);
    if (error) throw new Error(result.status === 401 ? MESSAGES.renameNeedsAuth : error);
    deps.store.upsert({ id, name });
    return { status: 'saved', device_id: id, name };
  } finally {
    deps.store.setPending(device.key, false);
  }
}
