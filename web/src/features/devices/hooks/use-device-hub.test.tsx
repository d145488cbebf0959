import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DeviceListResult } from '../api/devices.api.js';
import { DevicesView } from '../components/DevicesView.js';
import { DevicesContext } from '../components/devices-context.js';
import type { Json } from '../model/device.types.js';
import { useDeviceHub } from './use-device-hub.js';

const calls: (number | undefined)[] = [];
/** Whether the first screen's first tile was on the page when the whole list, and the stream, were asked for. */
const drawnBefore: Record<string, boolean> = {};
const firstTileDrawn = () => document.body.textContent?.includes('Lamp 001') ?? false;
let resolveAll: (result: DeviceListResult) => void = () => {};

vi.mock('../api/devices.api.js', async (original) => ({
  ...(await original<typeof import('../api/devices.api.js')>()),
  fetchDevices: vi.fn((first?: number) => {
    calls.push(first);
    if (first !== undefined) return Promise.resolve({ ok: true, devices: devices(first) });
    drawnBefore.list = firstTileDrawn();
    return new Promise<DeviceListResult>((resolve) => {
      resolveAll = resolve;
    });
  }),
}));
// The stream is not what this test is about: its configuration never arrives.
vi.mock('../../../shared/api/client-config.js', () => ({
  loadClientConfig: () => {
    drawnBefore.stream = firstTileDrawn();
    return new Promise(() => {});
  },
}));

const devices = (count: number): Json[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `id-${i}`,
    name: `Lamp ${String(i + 1).padStart(3, '0')}`,
    online: true,
    capabilities: [],
    inputs: [],
    state: {},
  }));

function Page() {
  const hub = useDeviceHub({ enabled: true, accessToken: 'token', username: 'someone' });
  return (
    <MemoryRouter initialEntries={['/devices']}>
      <DevicesContext.Provider value={hub}>
        <DevicesView />
      </DevicesContext.Provider>
    </MemoryRouter>
  );
}

afterEach(cleanup);
// jsdom has no layout: the virtualised grid of the whole list only needs the observer to exist.
vi.stubGlobal(
  'ResizeObserver',
  class {
    observe() {}
    disconnect() {}
  },
);
vi.stubGlobal('scrollTo', () => {});

describe('the Devices page loading 2000 devices', () => {
  it('shows the first screen of tiles before the whole list has arrived, then the rest', async () => {
    render(<Page />);
    // The first screen alone first, then the whole list (the order is the point, not the time: in a
    // fresh-clone CI run on a busy machine the second request came after vi.waitFor's default 1 s).
    await vi.waitFor(() => expect(calls).toEqual([30, undefined]), { timeout: 5000 });
    expect(await screen.findByText('Lamp 001')).toBeTruthy();
    expect(screen.getByText(/· 30 discovered/)).toBeTruthy();
    expect(screen.queryByText('Lamp 031')).toBeNull();
    // The whole list and the stream wait until the first screen is drawn (their work took its CPU).
    expect(drawnBefore).toEqual({ list: true, stream: true });

    await act(async () => resolveAll({ ok: true, devices: devices(2000) }));
    expect(await screen.findByText(/· 2000 discovered/)).toBeTruthy();
    // jsdom renders the page's toolbar and facets for 2000 devices slowly on a busy machine.
  }, 30_000);
});
