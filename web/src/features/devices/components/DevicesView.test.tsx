import type { Room } from '@hearth/contracts';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FavouritesStore } from '../../rooms/favourites-store.js';
import { RoomFeed } from '../../rooms/room-events.js';
import { RoomsStore } from '../../rooms/rooms-store.js';
import type { RoomsHub } from '../../rooms/use-rooms.js';
import type { HubActions } from '../hooks/use-device-hub.js';
import type { Json } from '../model/device.types.js';
import { DeviceStore } from '../store/device-store.js';
import { DevicesView } from './DevicesView.js';
import { DevicesContext } from './devices-context.js';

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});

function roomsHub(rooms: Room[]): RoomsHub {
  const feed = new RoomFeed();
  const store = new RoomsStore(async () => ({ success: true, status: 200, data: { rooms, floors: [] } }));
  const favourites = new FavouritesStore(
    {
      fetch: async () => ({ success: true, status: 200, data: { device_ids: [] } }),
      save: async (ids) => ({ success: true, status: 200, data: { device_ids: ids } }),
    },
    () => null,
  );
  store.follow(feed);
  return { feed, rooms: store, favourites, dispose: () => {} };
}

let location = '';
function Where() {
  const current = useLocation();
  location = `${current.pathname}${current.search}`;
  return null;
}

function setup(devices: Json[] = [{ id: 'lamp', name: 'Lamp' }], url = '/devices', rooms?: RoomsHub) {
  const store = new DeviceStore((flush) => queueMicrotask(flush));
  const actions = {
    send: vi.fn(),
    rename: vi.fn(),
    deliver: vi.fn(async () => null),
    sendAll: vi.fn(async () => 'not sent in tests'),
  } as unknown as HubActions;
  store.loadList(devices);
  store.flush();
  render(
    <MemoryRouter initialEntries={[url]}>
      <DevicesContext.Provider value={{ store, actions, rooms }}>
        <DevicesView />
        <Where />
      </DevicesContext.Provider>
    </MemoryRouter>,
  );
  return { store, actions };
}

/** jsdom has no layout: the virtualised grid only needs a resize observer and scrollTo to exist. */
function withoutLayout() {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  vi.stubGlobal('scrollTo', () => {});
}

/** `count` online devices named "Device 000", "Device 001", … */
const numbered = (count: number, more: (i: number) => Json = () => ({})): Json[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `d${i}`,
    name: `Device ${String(i).padStart(3, '0')}`,
    online: true,
    ...more(i),
  }));

const tileNames = () => screen.queryAllByRole('article').map((tile) => tile.getAttribute('aria-label'));

describe('DevicesView and the device bus', () => {
  it('says since when the device bus is offline, and nothing once it is back', () => {
    const { store } = setup();
    expect(screen.queryByText(/Device bus offline/)).toBeNull();
    const since = new Date(2026, 0, 5, 9, 7, 30).toISOString();
    act(() => store.setStatus({ bus: { bus: 'offline', since } }));
    expect(screen.getByRole('status').textContent).toBe('Device bus offline since 09:07');
    act(() => store.setStatus({ bus: { bus: 'online', since: new Date().toISOString() } }));
    expect(screen.queryByText(/Device bus offline/)).toBeNull();
  });

  it('says "Device bridge offline" while Zigbee2MQTT says so, and disables the controls', () => {
    const { store } = setup();
    const since = new Date().toISOString();
    act(() => store.setStatus({ bus: { bus: 'online', since, bridge: 'offline' } }));
    expect(screen.getByRole('status').textContent).toBe('Device bridge offline');
    expect(store.isBusOffline()).toBe(true);
    act(() => store.setStatus({ bus: { bus: 'online', since, bridge: 'online' } }));
    expect(screen.queryByText('Device bridge offline')).toBeNull();
    expect(store.isBusOffline()).toBe(false);
  });
});

const kitchen: Room = { id: 'r1', name: 'Kitchen', icon: 'cooking-pot', order: 0, floor_id: null };
const hall: Room = { id: 'r2', name: 'Hall', icon: 'door-open', order: 1, floor_id: null };
const power = { id: 'state', type: 'toggle', property: 'state', access: { write: true, set: true } };
const fleet: Json[] = [
  {
    id: 'lamp',
    name: 'Kitchen lamp',
    type: 'light',
    room_id: 'r1',
    online: true,
    inputs: [power],
    state: { state: 'ON' },
  },
  { id: 'plug', name: 'Kettle plug', type: 'switch', room_id: 'r1', online: false, inputs: [power] },
  { id: 'door', name: 'Front door', type: 'sensor', room_id: null, online: true, state: { battery: 5 } },
  { id: 'hall-lamp', name: 'Hall lamp', type: 'light', room_id: 'r2', online: true, inputs: [power] },
];

describe('DevicesView toolbar and rooms', () => {
  it('filters from the URL and shows the filtered counts beside the totals', async () => {
    setup(fleet, '/devices?status=offline', roomsHub([kitchen, hall]));
    expect(tileNames()).toEqual(['Kettle plug']);
    expect(screen.getByText('Total devices').previousElementSibling?.textContent).toBe('1 of 4');
    expect((screen.getByLabelText('Status') as HTMLSelectElement).value).toBe('offline');
  });

  it('searches by room name and writes the search to the URL; nothing matching offers Clear filters', async () => {
    setup(fleet, '/devices', roomsHub([kitchen, hall]));
    await act(async () => {});
    fireEvent.change(screen.getByLabelText('Search devices'), { target: { value: 'kitchen' } });
    expect(tileNames()).toEqual(['Kettle plug', 'Kitchen lamp']);
    expect(location).toBe('/devices?q=kitchen');
    fireEvent.click(screen.getByLabelText('Battery low'));
    expect(location).toBe('/devices?q=kitchen&battery=low');
    expect(screen.getByText('No devices match these filters.')).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: 'Clear filters' })[0] as HTMLElement);
    expect(location).toBe('/devices');
    expect(tileNames()).toHaveLength(4);
  });

  it('waits for the rooms before saying nothing matches a room filter', async () => {
    let answer!: (rooms: Room[]) => void;
    const hub = roomsHub([]);
    hub.rooms = new RoomsStore(
      () =>
        new Promise((resolve) => {
          answer = (rooms) => resolve({ success: true, status: 200, data: { rooms, floors: [] } });
        }),
    );
    setup(fleet, '/devices?room=hall', hub);
    expect(screen.queryByText('No devices match these filters.')).toBeNull();
    expect(tileNames()).toEqual([]);
    await act(async () => answer([kitchen, hall]));
    expect(tileNames()).toEqual(['Hall lamp']);
  });

  it('writes a room as its slug and finds it again', async () => {
    setup(fleet, '/devices', roomsHub([kitchen, hall]));
    await act(async () => {});
    fireEvent.change(screen.getByLabelText('Room'), { target: { value: 'r2' } });
    expect(location).toBe('/devices?room=hall');
    expect(tileNames()).toEqual(['Hall lamp']);
    fireEvent.change(screen.getByLabelText('Room'), { target: { value: 'unassigned' } });
    expect(location).toBe('/devices?room=unassigned');
    expect(tileNames()).toEqual(['Front door']);
  });

  it('groups by room with counts, collapses a room for good, and follows a device that moves', async () => {
    const { store } = setup(fleet, '/devices?group=room', roomsHub([kitchen, hall]));
    await act(async () => {});
    const headings = () => screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(headings()).toEqual(['Kitchen', 'Hall', 'Unassigned']);
    const kitchenSection = screen.getByRole('region', { name: 'Kitchen' });
    expect(within(kitchenSection).getByText('2 devices · 1 on · 1 offline')).toBeTruthy();
    fireEvent.click(within(kitchenSection).getByRole('button', { name: 'Kitchen' }));
    expect(tileNames()).toEqual(['Hall lamp', 'Front door']);
    expect(localStorage.getItem('hearth.devices.collapsedRooms')).toBe('["r1"]');
    await act(async () => {
      store.upsert({ id: 'door', room_id: 'r2' });
      store.flush();
    });
    expect(headings()).toEqual(['Kitchen', 'Hall']);
    expect(
      within(screen.getByRole('region', { name: 'Hall' })).getByText('2 devices · 0 on · 0 offline'),
    ).toBeTruthy();
  });

  it('"All off" sends the room\'s lights and switches in one call and sums up what their states confirmed', async () => {
    const { actions } = setup(fleet, '/devices?group=room', roomsHub([kitchen, hall]));
    await act(async () => {});
    const sendAll = actions.sendAll as ReturnType<typeof vi.fn>;
    sendAll.mockImplementation(async (plan: { device: { id: string } }[]) => ({
      results: plan.map(({ device }) =>
        device.id === 'plug'
          ? { device_id: 'plug', outcome: 'failed', error: 'Device bridge offline' }
          : { device_id: device.id, outcome: 'confirmed' },
      ),
      confirmed: 1,
      total: 2,
    }));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'All off in Kitchen' }));
    });
    expect(
      sendAll.mock.calls[0]?.[0].map(
        ({ device, command }: { device: { id: string }; command: { state: unknown } }) => [
          device.id,
          command.state,
        ],
      ),
    ).toEqual([
      ['plug', { on: false }],
      ['lamp', { on: false }],
    ]);
    expect(screen.getByText('Turned off 1 of 2; failed: Kettle plug')).toBeTruthy();
  });

  it('mounts only the visible tiles of the first screen while the whole list loads, then every tile of a small list', async () => {
    withoutLayout();
    // jsdom lays nothing out: each row of tiles measures as a real one would (one column here).
    const offsetHeight = vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get');
    offsetHeight.mockImplementation(function (this: HTMLElement) {
      return this.classList.contains('device-grid-row') ? 280 : 0;
    });
    const thirty = numbered(30);
    const { store } = setup([]);
    act(() => {
      store.clear(); // back to before the list answered
      store.loadFirst(thirty);
      store.flush();
    });
    await act(async () => {});
    const mounted = tileNames().length;
    expect(mounted).toBeGreaterThan(0);
    expect(mounted).toBeLessThan(30);
    expect(tileNames()[0]).toBe('Device 000');
    act(() => {
      store.loadList(thirty);
      store.flush();
    });
    await act(async () => {});
    expect(tileNames()).toHaveLength(30);
    offsetHeight.mockRestore();
  });

  it('keeps the sections virtualised beyond 60 devices: headings are rows, a collapsed room takes its tiles out', async () => {
    withoutLayout();
    const many = numbered(200, (i) => ({ room_id: i < 100 ? 'r1' : 'r2' }));
    setup(many, '/devices?group=room', roomsHub([kitchen, hall]));
    await act(async () => {});
    expect(screen.getByRole('heading', { level: 2, name: 'Kitchen' })).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 2, name: 'Hall' })).toBeNull();
    const mounted = tileNames().length;
    expect(mounted).toBeGreaterThan(0);
    expect(mounted).toBeLessThan(60);
    fireEvent.click(screen.getByRole('button', { name: 'Kitchen' }));
    expect(screen.getByRole('heading', { level: 2, name: 'Hall' })).toBeTruthy();
    expect(tileNames().every((name) => Number(name?.slice(-3)) >= 100)).toBe(true);
    // Role queries over 200 devices' worth of DOM take seconds when the machine is busy (CI).
  }, 30_000);
});
