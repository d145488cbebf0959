import { describe, expect, it, vi } from 'vitest';
import type { ApiResult } from '../../shared/api/client.js';
import type { HubAnswer } from './api/devices.api.js';
import { type ActionDeps, renameDevice, sendCommand } from './device-actions.js';
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
