import { vi } from 'vitest';
import type { HubActions } from './hooks/use-device-hub.js';
import type { Json } from './model/device.types.js';
import { DeviceStore } from './store/device-store.js';

/**
 * For component tests: a device store holding `devices` (flushed, so tiles read them at once) and
 * hub actions that only record their calls, as `DevicesContext` gives them to a page.
 */
export function testHub(devices: Json[]) {
  const store = new DeviceStore((flush) => queueMicrotask(flush));
  const actions = {
    send: vi.fn(async () => {}),
    rename: vi.fn(async () => ({ status: 'unchanged' as const })),
    deliver: vi.fn(async () => null),
    sendAll: vi.fn(async () => 'not sent in tests'),
  } satisfies HubActions;
  store.loadList(devices);
  store.flush();
  return { store, actions };
}
