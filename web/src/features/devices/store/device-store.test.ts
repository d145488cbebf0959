import { describe, expect, it, vi } from 'vitest';
import { DeviceStore } from './device-store.js';

/** A store whose frames the test runs by hand. */
function setup() {
  const frames: (() => void)[] = [];
  let now = 1_000;
  const store = new DeviceStore(
    (flush) => frames.push(flush),
    () => now,
  );
  const frame = () => {
    for (const flush of frames.splice(0)) flush();
  };
  return { store, frame, frames, tick: (ms: number) => (now += ms) };
}

const names = (store: DeviceStore) => store.getIds().map((id) => store.getDevice(id)?.displayName);

describe('DeviceStore (docs/screens.md#device-list-and-stream)', () => {
  it('loads the REST list: metadata source rest, loading over, sorted case-insensitively', () => {
    const { store, frame } = setup();
    expect(store.getStatus()).toMatchObject({ loading: true, metadata: { connected: false } });
    store.loadList([
      { id: 'b', name: 'banana' },
      { id: 'a', name: 'Apple' },
      { id: 'c', name: 'cherry' },
    ]);
    frame();
    expect(names(store)).toEqual(['Apple', 'banana', 'cherry']);
    expect(store.getStatus()).toMatchObject({
      loading: false,
      metadata: { connected: true, source: 'rest' },
    });
  });

  it('holds the first screen as partial until the whole list answers; a first screen of everything is not', () => {
    const { store, frame } = setup();
    store.loadFirst([{ id: 'a', name: 'Apple' }]);
    frame();
    expect(store.getStatus()).toMatchObject({ loading: false, partial: true });
    store.loadList([
      { id: 'a', name: 'Apple' },
      { id: 'b', name: 'banana' },
    ]);
    frame();
    expect(store.getStatus().partial).toBe(false);
    expect(names(store)).toEqual(['Apple', 'banana']);

    const small = setup();
    small.store.loadFirst([{ id: 'a', name: 'Apple' }], { partial: false });
    small.frame();
    expect(small.store.getStatus()).toMatchObject({ loading: false, partial: false });
  });

  it('merges an upsert into the stored device and marks it as having metadata', () => {
    const { store, frame } = setup();
    store.applyState('lamp', { state: 'ON' });
    frame();
    expect(store.getDevice('lamp')?.hasMetadata).toBe(false);
    store.upsert({ id: 'lamp', name: 'Lamp', protocol: 'zigbee' });
    store.upsert({ id: 'lamp', model: 'LED1623' });
    frame();
    expect(store.getDevice('lamp')).toMatchObject({
      name: 'Lamp',
      model: 'LED1623',
      protocol: 'zigbee',
      hasMetadata: true,
      state: { state: 'ON' },
    });
  });

  it('replaces the state on a state message, stamps it and marks the device online', () => {
    const { store, frame, tick } = setup();
    store.loadList([{ id: 'lamp', name: 'Lamp', online: false, state: { state: 'OFF', brightness: 3 } }]);
    frame();
    tick(500);
    store.applyState('lamp', { state: 'ON' });
    frame();
    expect(store.getDevice('lamp')).toMatchObject({
      online: true,
      state: { state: 'ON' },
      stateUpdatedAt: 1_500,
      toggleState: true,
    });
  });

  it('removes by id, or else by external id', () => {
    const { store, frame } = setup();
    store.loadList([
      { id: 'a', name: 'A', external_id: '0x1' },
      { id: 'b', name: 'B', external_id: '0x2' },
      { id: 'c', name: 'C', external_id: '0x3' },
    ]);
    frame();
    store.remove({ id: 'a' });
    store.remove({ device_id: 'missing', external_id: '0x2' });
    frame();
    expect(names(store)).toEqual(['C']);
    store.remove({ deviceId: 'c' });
    frame();
    expect(names(store)).toEqual([]);
  });

  it('discards by-external/ ids and purges any held', () => {
    const { store, frame } = setup();
    store.loadList([
      { id: 'by-external/0x1', name: 'alias' },
      { id: 'real', name: 'Real' },
    ]);
    store.applyState('by-external/0x2', { state: 'ON' });
    store.upsert({ id: 'by-external/0x3', name: 'alias' });
    frame();
    expect(store.getIds()).toEqual(['real']);
    expect(store.getDevice('by-external/0x1')).toBeUndefined();
  });

  it('lists only devices with metadata or something to show', () => {
    const { store, frame } = setup();
    store.applyState('empty', {});
    store.applyState('warm', { temperature: 20 });
    frame();
    expect(store.getIds()).toEqual(['warm']);
  });

  it('batches a frame of messages into one notification per changed device', () => {
    const { store, frame, frames } = setup();
    store.loadList([
      { id: 'a', name: 'A' },
      { id: 'b', name: 'B' },
    ]);
    frame();
    const onA = vi.fn();
    const onB = vi.fn();
    const onList = vi.fn();
    store.subscribeDevice('a', onA);
    store.subscribeDevice('b', onB);
    store.subscribe(onList);
    for (let i = 0; i < 100; i++) store.applyState('a', { brightness: i });
    expect(frames).toHaveLength(1);
    expect(onA).not.toHaveBeenCalled();
    frame();
    expect(onA).toHaveBeenCalledTimes(1);
    expect(onB).not.toHaveBeenCalled();
    expect(store.getDevice('a')?.state).toEqual({ brightness: 99 });
    // the stats changed (a now has state and is online), the listing did not
    expect(onList).toHaveBeenCalledTimes(1);
    const ids = store.getIds();
    store.applyState('a', { brightness: 1 });
    frame();
    expect(store.getIds()).toBe(ids);
    expect(onList).toHaveBeenCalledTimes(1);
  });

  it('tells the page when a room or a room suggestion changes, not on state alone (docs/rooms.md)', () => {
    const { store, frame } = setup();
    store.loadList([{ id: 'a', name: 'Kitchen/Lamp', room_id: null, suggested_room: 'Kitchen' }]);
    frame();
    const onList = vi.fn();
    store.subscribe(onList);
    const version = store.getAssignmentVersion();
    store.applyState('a', { state: 'ON' });
    frame();
    expect(store.getAssignmentVersion()).toBe(version);
    store.upsert({ id: 'a', name: 'Kitchen/Lamp', room_id: 'r1', suggested_room: null });
    frame();
    expect(store.getAssignmentVersion()).toBeGreaterThan(version);
    expect(store.getDevice('a')?.roomId).toBe('r1');
    expect(onList).toHaveBeenCalledTimes(2);
  });

  it('re-sorts when a rename changes the display name', () => {
    const { store, frame } = setup();
    store.loadList([
      { id: 'a', name: 'Alpha' },
      { id: 'b', name: 'Beta' },
    ]);
    frame();
    store.upsert({ id: 'a', name: 'zulu' });
    frame();
    expect(names(store)).toEqual(['Beta', 'zulu']);
  });

  it('keeps the stats of docs/devicehub.md#device-stats', () => {
    const { store, frame } = setup();
    store.loadList([
      { id: 'a', name: 'A', online: true, capabilities: [{ property: 'temperature', kind: 'numeric' }] },
      { id: 'b', name: 'B', online: false },
    ]);
    store.applyState('b', { state: 'ON' });
    frame();
    expect(store.getStats()).toEqual({ total: 2, online: 2, withState: 1, sensors: 1 });
  });

  it('counts the stats again when a state message brings a device online, and when one goes', () => {
    const { store, frame } = setup();
    store.loadList([
      { id: 'a', name: 'A', online: true, state: { temperature: 20 } },
      { id: 'b', name: 'B', online: false },
    ]);
    frame();
    expect(store.getStats()).toEqual({ total: 2, online: 1, withState: 1, sensors: 0 });
    store.applyState('a', { temperature: 21 });
    frame();
    const unchanged = store.getStats();
    store.applyState('b', { state: 'ON' });
    frame();
    expect(store.getStats()).toEqual({ total: 2, online: 2, withState: 2, sensors: 0 });
    expect(unchanged).toEqual({ total: 2, online: 1, withState: 1, sensors: 0 });
    store.remove({ id: 'a' });
    frame();
    expect(store.getStats()).toEqual({ total: 1, online: 1, withState: 1, sensors: 0 });
  });

  it("keeps a device's metadata as it was across state messages, and reads it again after an upsert", () => {
    const { store, frame } = setup();
    const capabilities = [{ property: 'brightness', kind: 'numeric' }];
    store.loadList([{ id: 'lamp', name: 'Lamp', online: false, capabilities }]);
    frame();
    const first = store.getDevice('lamp');
    store.applyState('lamp', { state: 'ON', brightness: 40 });
    frame();
    const lit = store.getDevice('lamp');
    expect(lit).toMatchObject({ online: true, toggleState: true, state: { brightness: 40 }, name: 'Lamp' });
    // The same capabilities: the tile's parts that only show metadata need not render again.
    expect(lit?.capabilities).toBe(first?.capabilities);
    store.upsert({ id: 'lamp', name: 'Desk lamp', capabilities: [...capabilities, { property: 'state' }] });
    frame();
    expect(store.getDevice('lamp')).toMatchObject({
      displayName: 'Desk lamp',
      hasToggle: true,
      state: { state: 'ON', brightness: 40 },
    });
    expect(store.getDevice('lamp')?.capabilities).toHaveLength(2);
    // Capabilities a state carries are merged in, as toDevice does.
    store.applyState('lamp', { state: 'OFF', capabilities: [{ property: 'power', kind: 'numeric' }] });
    frame();
    expect(store.getDevice('lamp')?.capabilities.map((capability) => capability.property)).toEqual([
      'brightness',
      'state',
      'power',
    ]);
    expect(store.getDevice('lamp')?.toggleState).toBe(false);
  });

  it('marks a device pending and notifies only its tile', () => {
    const { store, frame } = setup();
    store.loadList([{ id: 'a', name: 'A' }]);
    frame();
    const onA = vi.fn();
    store.subscribeDevice('a', onA);
    store.setPending('a', true);
    expect(store.isPending('a')).toBe(true);
    store.setPending('a', false);
    expect(onA).toHaveBeenCalledTimes(2);
  });

  it('clears everything when access is lost', () => {
    const { store, frame } = setup();
    store.loadList([{ id: 'a', name: 'A' }]);
    store.setStatus({ stream: { connected: true }, error: 'x' });
    frame();
    const onA = vi.fn();
    store.subscribeDevice('a', onA);
    store.clear();
    expect(store.getIds()).toEqual([]);
    expect(store.getDevice('a')).toBeUndefined();
    expect(store.getStatus()).toMatchObject({ loading: true, stream: { connected: false }, error: null });
    expect(onA).toHaveBeenCalled();
  });

  it('clears an error only while it is still the current one', () => {
    const { store } = setup();
    store.setStatus({ error: 'Unable to connect to device stream' });
    store.clearError('Unable to load device list');
    expect(store.getStatus().error).toBe('Unable to connect to device stream');
    store.clearError('Unable to connect to device stream');
    expect(store.getStatus().error).toBeNull();
  });

  it.each([
    ['a move to another room', { room_id: 'hall' }, 'room'],
    ['going offline', { online: false }, 'online'],
    ['a low battery', { state: { battery: 5 } }, 'battery'],
    ['a brightness change', { state: { battery: 90, brightness: 10 } }, null],
  ] as const)('tells the page (facets version) about %s: %s', (_name, change, facet) => {
    const bumped = facet !== null;
    const { store, frame } = setup();
    store.loadList([{ id: 'lamp', name: 'Lamp', room_id: 'kitchen', online: true, state: { battery: 90 } }]);
    frame();
    const before = store.getFacetsVersion();
    const listener = vi.fn();
    store.subscribe(listener);
    store.upsert({ id: 'lamp', ...change });
    frame();
    expect(store.getFacetsVersion() > before).toBe(bumped);
    if (facet) {
      expect(listener).toHaveBeenCalled();
      const others = (['room', 'online', 'battery'] as const).filter((other) => other !== facet);
      expect(store.getFacetsVersion(others)).toBe(0);
    }
  });
});
