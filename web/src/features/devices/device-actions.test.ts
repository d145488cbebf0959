import type { DeviceBulkCommand, DeviceBulkCommandAnswer, DeviceCallResult } from '@hearth/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiResult } from '../../shared/api/client.js';
import { planRoomAction } from '../rooms/room-actions.js';
import type { HubAnswer } from './api/devices.api.js';
import { CommandWatch } from './command-watch.js';
import { type ActionDeps, renameDevice, sendAll, sendCommand } from './device-actions.js';
import { deviceFrom } from './model/test-devices.js';
import { DeviceStore } from './store/device-store.js';

const ok: ApiResult<HubAnswer> = { success: true, status: 200, data: { success: true, data: {} } };
const failed = (status: number, error?: string): ApiResult<HubAnswer> => ({
  success: false,
  status,
  data: error ? { success: false, error } : {},
  error: error ?? 'POST failed',
});

function setup({ connected = true, token = 'token' as string | null } = {}) {
  const store = new DeviceStore(() => {});
  const deps = {
    store,
    publish: vi.fn(async () => {}),
    streamConnected: () => connected,
    accessToken: () => token,
    postCommand: vi.fn(async () => ok),
    postBulk: vi.fn(
      async (
        _commands: DeviceBulkCommand[],
      ): Promise<ApiResult<DeviceCallResult<DeviceBulkCommandAnswer>>> => ({
        success: false,
        status: 0,
        data: { success: false, data: null, error: null },
        error: 'Failed to fetch',
      }),
    ),
    renameDevice: vi.fn(async () => ok),
  } satisfies ActionDeps;
  return { store, deps };
}

const lamp = deviceFrom({ id: 'lamp', name: 'Lamp' });
const command = { input: { id: 'power', value: true }, state: { on: true } };

describe('sendCommand (docs/api.md#devices, docs/strings.md#devices)', () => {
  it('publishes {device_id, state} on the stream when it is connected', async () => {
    const { deps } = setup();
    await sendCommand(deps, lamp, command);
    expect(deps.publish).toHaveBeenCalledWith(
      'set',
      { device_id: 'lamp', state: { on: true } },
      'Not connected to device command channel',
    );
    expect(deps.postCommand).not.toHaveBeenCalled();
  });

  it('posts the command over REST when the stream is down, pending meanwhile', async () => {
    const { deps, store } = setup({ connected: false });
    let resolve!: (value: ApiResult<HubAnswer>) => void;
    deps.postCommand.mockImplementation(() => new Promise((r) => (resolve = r)));
    const sent = sendCommand(deps, lamp, command);
    expect(store.isPending('lamp')).toBe(true);
    resolve(ok);
    await sent;
    expect(store.isPending('lamp')).toBe(false);
    expect(deps.postCommand).toHaveBeenCalledWith('lamp', command);
  });

  it.each([
    ['the server error', failed(404, 'Device not found'), 'Device not found'],
    ['the fallback', { success: true, status: 200, data: { success: false } }, 'Unable to send command'],
    ['no connection', failed(0, 'Failed to fetch'), 'Not connected to device command channel'],
  ])('shows %s in the error card', async (_name, answer, message) => {
    const { deps, store } = setup({ connected: false });
    deps.postCommand.mockResolvedValue(answer as ApiResult<HubAnswer>);
    await sendCommand(deps, lamp, command);
    expect(store.getStatus().error).toBe(message);
    expect(store.isPending('lamp')).toBe(false);
  });

  it.each([
    ['a missing payload', lamp, null, 'Missing command payload'],
    ['a device without id', deviceFrom({ external_id: '0x1', name: 'x' }), command, 'Missing device id'],
  ])('refuses %s', async (_name, device, payload, message) => {
    const { deps, store } = setup();
    await sendCommand(deps, device, payload);
    expect(store.getStatus().error).toBe(message);
    expect(deps.publish).not.toHaveBeenCalled();
  });
});

describe('renameDevice (docs/screens.md#rename, docs/strings.md#validation-rules)', () => {
  it('publishes over the stream first and treats it as queued', async () => {
    const { deps } = setup();
    await expect(renameDevice(deps, lamp, '  Desk lamp ')).resolves.toEqual({
      status: 'queued',
      device_id: 'lamp',
      name: 'Desk lamp',
    });
    expect(deps.publish).toHaveBeenCalledWith(
      'rename',
      { device_id: 'lamp', name: 'Desk lamp' },
      'Not connected to rename channel',
    );
    expect(deps.renameDevice).not.toHaveBeenCalled();
  });

  it('falls back to HTTP when the publish fails', async () => {
    const { deps } = setup();
    deps.publish.mockRejectedValue(new Error('Not connected to rename channel'));
    await expect(renameDevice(deps, lamp, 'Desk lamp')).resolves.toMatchObject({ status: 'saved' });
    expect(deps.renameDevice).toHaveBeenCalledWith('lamp', 'Desk lamp');
  });

  it.each([
    ['an empty name', lamp, '   ', {}, 'Name cannot be empty'],
    [
      'no access token for HTTP',
      lamp,
      'New',
      { connected: false, token: null },
      'Authentication required to rename device',
    ],
    [
      'a device without id',
      deviceFrom({ external_id: '0x1', name: 'x' }),
      'New',
      {},
      'Device not ready for rename',
    ],
  ])('refuses %s', async (_name, device, name, options, message) => {
    const { deps } = setup(options);
    await expect(renameDevice(deps, device, name)).rejects.toThrow(message);
    expect(deps.publish).not.toHaveBeenCalled();
  });

  it.each([
    ['the server error', failed(504, 'Zigbee2MQTT did not answer'), 'Zigbee2MQTT did not answer'],
    ['the fallback', { success: false, status: 500, data: {} }, 'Unable to rename device'],
    ['401', failed(401, 'Unauthorized'), 'Authentication required to rename device'],
  ])('shows %s when the HTTP rename fails', async (_name, answer, message) => {
    const { deps } = setup({ connected: false });
    deps.renameDevice.mockResolvedValue(answer as ApiResult<HubAnswer>);
    await expect(renameDevice(deps, lamp, 'New')).rejects.toThrow(message);
  });

  it('does not send an unchanged name', async () => {
    const { deps } = setup();
    await expect(renameDevice(deps, lamp, ' Lamp ')).resolves.toEqual({ status: 'unchanged' });
    expect(deps.publish).not.toHaveBeenCalled();
    expect(deps.renameDevice).not.toHaveBeenCalled();
  });
});

const writable = { readOnly: false, write: true, set: true };
/** A lamp with a power switch (ON / OFF) and brightness, in a room. */
const lampIn = (id: string, room = 'hall') =>
  deviceFrom({
    id,
    name: id,
    type: 'light',
    room_id: room,
    state: { state: 'ON', brightness: 100 },
    capabilities: [
      {
        id: 'state',
        property: 'state',
        kind: 'binary',
        access: writable,
        metadata: { value_on: 'ON', value_off: 'OFF' },
      },
      {
        id: 'brightness',
        property: 'brightness',
        kind: 'numeric',
        range: { min: 0, max: 254 },
        access: writable,
      },
    ],
  });

describe('commands count as done when the state confirms them (docs/screens.md#device-tile)', () => {
  afterEach(() => vi.useRealTimers());

  it('says "Not responding" when no state confirms a command within 5 s, until the next state message', async () => {
    vi.useFakeTimers();
    const { deps, store } = setup();
    const watch = new CommandWatch(store);
    const desk = lampIn('desk');
    store.loadList([{ id: 'desk', name: 'desk' }]);
    await sendCommand({ ...deps, watch }, desk, {
      input: { id: 'state', value: false },
      state: { on: false },
    });
    // A report that still says ON is no confirmation.
    store.applyState('desk', { state: 'ON' });
    vi.advanceTimersByTime(4999);
    expect(store.isNotResponding('desk')).toBe(false);
    vi.advanceTimersByTime(1);
    expect(store.isNotResponding('desk')).toBe(true);
    store.applyState('desk', { state: 'OFF' });
    expect(store.isNotResponding('desk')).toBe(false);
  });

  it('is satisfied by the echo: nothing is said', async () => {
    vi.useFakeTimers();
    const { deps, store } = setup();
    const watch = new CommandWatch(store);
    await sendCommand({ ...deps, watch }, lampIn('desk'), {
      input: { id: 'brightness', value: 128 },
      state: { brightness: 128, on: true },
    });
    store.applyState('desk', { state: 'ON', brightness: 127 });
    vi.advanceTimersByTime(10_000);
    expect(store.isNotResponding('desk')).toBe(false);
  });

  it("sends a room's plan in one call, hears each confirmation as it comes, and marks who did not respond", async () => {
    const { deps, store } = setup();
    const [hall, desk, porch] = [lampIn('hall lamp'), lampIn('desk'), lampIn('porch')];
    const plan = planRoomAction([hall, desk, porch], 'hall', false);
    let answer!: (value: ApiResult<DeviceCallResult<DeviceBulkCommandAnswer>>) => void;
    deps.postBulk.mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    const confirmed: string[] = [];
    const done = sendAll(deps, plan, (device) => confirmed.push(device.key));
    expect(deps.postBulk).toHaveBeenCalledWith([
      { device_id: 'hall lamp', input: { id: 'state', value: false }, state: { on: false } },
      { device_id: 'desk', input: { id: 'state', value: false }, state: { on: false } },
      { device_id: 'porch', input: { id: 'state', value: false }, state: { on: false } },
    ]);
    expect(['hall lamp', 'desk', 'porch'].map(store.isPending)).toEqual([true, true, true]);
    store.applyState('hall lamp', { state: 'OFF' });
    store.applyState('desk', { state: 'ON' });
    expect(confirmed).toEqual(['hall lamp']);
    expect(store.isPending('hall lamp')).toBe(false);
    const results: DeviceBulkCommandAnswer = {
      results: [
        { device_id: 'hall lamp', outcome: 'confirmed' },
        { device_id: 'desk', outcome: 'not_responding' },
        { device_id: 'porch', outcome: 'offline' },
      ],
      confirmed: 1,
      total: 3,
    };
    answer({ success: true, status: 200, data: { success: true, data: results, error: null } });
    await expect(done).resolves.toEqual(results);
    expect(['hall lamp', 'desk', 'porch'].map(store.isPending)).toEqual([false, false, false]);
    expect(['hall lamp', 'desk', 'porch'].map(store.isNotResponding)).toEqual([false, true, false]);
  });

  it("gives the call's failure as its message", async () => {
    const { deps } = setup();
    await expect(sendAll(deps, planRoomAction([lampIn('desk')], 'hall', true))).resolves.toBe(
      'Not connected to device command channel',
    );
  });
});
