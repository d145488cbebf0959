import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HubActions } from '../hooks/use-device-hub.js';
import { DeviceStore } from '../store/device-store.js';
import { DevicesView } from './DevicesView.js';
import { DevicesContext } from './devices-context.js';

afterEach(cleanup);

function setup() {
  const store = new DeviceStore((flush) => queueMicrotask(flush));
  const actions = { send: vi.fn(), rename: vi.fn() } as unknown as HubActions;
  store.loadList([{ id: 'lamp', name: 'Lamp' }]);
  store.flush();
  render(
    <DevicesContext.Provider value={{ store, actions }}>
      <DevicesView />
    </DevicesContext.Provider>,
  );
  return store;
}

describe('DevicesView and the device bus', () => {
  it('says since when the device bus is offline, and nothing once it is back', () => {
    const store = setup();
    expect(screen.queryByText(/Device bus offline/)).toBeNull();
    const since = new Date(2026, 0, 5, 9, 7, 30).toISOString();
    act(() => store.setStatus({ bus: { bus: 'offline', since } }));
    expect(screen.getByRole('status').textContent).toBe('Device bus offline since 09:07');
    act(() => store.setStatus({ bus: { bus: 'online', since: new Date().toISOString() } }));
    expect(screen.queryByText(/Device bus offline/)).toBeNull();
  });

  it('says "Device bridge offline" while Zigbee2MQTT says so, and disables the controls', () => {
    const store = setup();
    const since = new Date().toISOString();
    act(() => store.setStatus({ bus: { bus: 'online', since, bridge: 'offline' } }));
    expect(screen.getByRole('status').textContent).toBe('Device bridge offline');
    expect(store.isBusOffline()).toBe(true);
    act(() => store.setStatus({ bus: { bus: 'online', since, bridge: 'online' } }));
    expect(screen.queryByText('Device bridge offline')).toBeNull();
    expect(store.isBusOffline()).toBe(false);
  });
});
