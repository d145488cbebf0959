import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type ConnectFn,
  DeviceStream,
  type StreamConnectOptions,
  type StreamHandlers,
} from './device-stream.js';
import { streamUrl } from './topics.js';

class FakeClient extends EventEmitter {
  subscribed: string[] = [];
  published: { topic: string; message: string; options: unknown }[] = [];
  ended = false;
  constructor(
    readonly url: string,
    readonly options: StreamConnectOptions,
  ) {
    super();
  }
  subscribe(topics: string[], options: { qos: 0 }) {
    expect(options).toEqual({ qos: 0 });
    this.subscribed.push(...topics);
  }
  publish(topic: string, message: string, options: unknown, callback?: (error?: Error) => void) {
    this.published.push({ topic, message, options });
    callback?.();
  }
  end() {
    this.ended = true;
  }
  deliver(topic: string, payload: unknown, packet: { retain: boolean } = { retain: false }) {
    this.emit(
      'message',
      topic,
      new TextEncoder().encode(typeof payload === 'string' ? payload : JSON.stringify(payload)),
      packet,
    );
  }
}

function setup(topicPrefix = 'hearth') {
  const clients: FakeClient[] = [];
  const connect: ConnectFn = (url, options) => {
    const client = new FakeClient(url, options);
    clients.push(client);
    return client;
  };
  const handlers = {
    state: vi.fn(),
    upsert: vi.fn(),
    removed: vi.fn(),
    hubStatus: vi.fn(),
    status: vi.fn(),
    error: vi.fn(),
    room: vi.fn(),
    refused: vi.fn(),
  } satisfies StreamHandlers;
  const stream = new DeviceStream({
    url: 'ws://home.test/ws/devicehub',
    connect,
    handlers,
    credentials: () => ({ username: 'ada', password: 'token-1' }),
    topicPrefix,
    now: () => 1_700_000_000_000,
    random: () => 0.4567,
  });
  return { stream, clients, handlers, last: () => clients[clients.length - 1] as FakeClient };
}

describe('DeviceStream (docs/devicehub.md#stream, docs/strings.md#constants-and-limits)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('connects with MQTT 3.1.1, a rt- client id, clean session, 6 s time-out and the access token', () => {
    const { stream, last } = setup();
    stream.start();
    expect(last().url).toBe('ws://home.test/ws/devicehub');
    expect(last().options).toEqual({
      protocolVersion: 4,
      clientId: 'rt-1700000000000-456',
      clean: true,
      connectTimeout: 6000,
      reconnectPeriod: 0,
      timerVariant: 'native',
      username: 'ada',
      password: 'token-1',
    });
  });

  it('subscribes to the three topics and the hub status at QoS 0 once connected', () => {
    const { stream, last, handlers } = setup();
    stream.start();
    last().emit('connect');
    expect(last().subscribed).toEqual([
      'hearth/devicehub/devices/#',
      'hearth/devicehub/events/device.upsert',
      'hearth/devicehub/events/device.removed',
      'hearth/devicehub/events/hub.status',
      'hearth/devicehub/events/room.upsert',
      'hearth/devicehub/events/room.removed',
      'hearth/devicehub/events/floor.upsert',
      'hearth/devicehub/events/floor.removed',
      'hearth/devicehub/events/favourites.changed',
      'hearth/devicehub/replies/rt-1700000000000-456',
    ]);
    expect(handlers.status).toHaveBeenLastCalledWith(true);
    expect(handlers.error).toHaveBeenLastCalledWith(null);
    expect(stream.isConnected).toBe(true);
  });

  it("hands a refusal on this client's own reply topic over, and nobody else's (docs/access.md)", () => {
    const { stream, last, handlers } = setup();
    stream.start();
    last().emit('connect');
    const refusal = {
      kind: 'refused',
      device_id: 'lamp-1',
      error: 'You may only view this device, not control it',
    };
    last().deliver('hearth/devicehub/replies/rt-1700000000000-456', refusal);
    last().deliver('hearth/devicehub/replies/rt-1-2', { ...refusal, device_id: 'other' });
    last().deliver('hearth/devicehub/replies/rt-1700000000000-456', { kind: 'refused', device_id: 'lamp-1' });
    expect(handlers.refused.mock.calls).toEqual([[refusal]]);
  });

  it("reads and writes under the server's DEVICEHUB_TOPIC_PREFIX", async () => {
    const { stream, last, handlers } = setup('myhome');
    stream.start();
    last().emit('connect');
    expect(last().subscribed).toEqual([
      'myhome/devicehub/devices/#',
      'myhome/devicehub/events/device.upsert',
      'myhome/devicehub/events/device.removed',
      'myhome/devicehub/events/hub.status',
      'myhome/devicehub/events/room.upsert',
      'myhome/devicehub/events/room.removed',
      'myhome/devicehub/events/floor.upsert',
      'myhome/devicehub/events/floor.removed',
      'myhome/devicehub/events/favourites.changed',
      'myhome/devicehub/replies/rt-1700000000000-456',
    ]);
    last().deliver('myhome/devicehub/devices/lamp-1', { state: 'ON' });
    last().deliver('hearth/devicehub/devices/lamp-2', { state: 'ON' });
    expect(handlers.state.mock.calls).toEqual([['lamp-1', { state: 'ON' }]]);
    await stream.publish('set', { device_id: 'lamp-1', state: { state: 'OFF' } }, 'down');
    expect(last().published.map((message) => message.topic)).toEqual([
      'myhome/devicehub/commands/device.set',
    ]);
  });

  it('routes state, upsert and removed messages; ignores garbage', () => {
    const { stream, last, handlers } = setup();
    stream.start();
    last().emit('connect');
    last().deliver('hearth/devicehub/devices/lamp-1', { state: 'ON' });
    last().deliver('hearth/devicehub/events/device.upsert', { id: 'lamp-1', name: 'Lamp' });
    last().deliver('hearth/devicehub/events/device.removed', { id: 'lamp-1' });
    last().deliver('hearth/devicehub/devices/lamp-1', 'not json');
    last().deliver('hearth/devicehub/devices/lamp-1', '');
    last().deliver('hearth/devicehub/events/device.upsert', '[1]');
    expect(handlers.state.mock.calls).toEqual([['lamp-1', { state: 'ON' }]]);
    expect(handlers.upsert.mock.calls).toEqual([[{ id: 'lamp-1', name: 'Lamp' }]]);
    expect(handlers.removed.mock.calls).toEqual([[{ id: 'lamp-1' }]]);
  });

  it('keeps a live state over an older retained one replayed after it, until the next connection', () => {
    const { stream, last, handlers } = setup();
    stream.start();
    last().emit('connect');
    const lamp = 'hearth/devicehub/devices/lamp-1';
    const plug = 'hearth/devicehub/devices/plug-1';
    // The lamp is switched off as the page subscribes: the live message comes before the replay.
    last().deliver(lamp, { state: 'OFF' });
    last().deliver(lamp, { state: 'ON' }, { retain: true });
    last().deliver(plug, { state: 'ON' }, { retain: true });
    last().deliver(plug, { state: 'OFF' });
    expect(handlers.state.mock.calls).toEqual([
      ['lamp-1', { state: 'OFF' }],
      ['plug-1', { state: 'ON' }],
      ['plug-1', { state: 'OFF' }],
    ]);
    // Hidden from this connection and shown again, the lamp's state comes as a replay: it counts.
    last().deliver('hearth/devicehub/events/device.removed', { id: 'lamp-1' });
    last().deliver(lamp, { state: 'ON' }, { retain: true });
    expect(handlers.state.mock.calls.at(-1)).toEqual(['lamp-1', { state: 'ON' }]);
    // A new connection's replay is the state again.
    last().emit('close');
    vi.advanceTimersByTime(1500);
    last().emit('connect');
    last().deliver(lamp, { state: 'ON' }, { retain: true });
    expect(handlers.state.mock.calls.at(-1)).toEqual(['lamp-1', { state: 'ON' }]);
  });

  it('routes room, floor and favourites events (docs/rooms.md#events); ignores wrong shapes', () => {
    const { stream, last, handlers } = setup();
    stream.start();
    last().emit('connect');
    const room = { id: 'r1', name: 'Kitchen', icon: 'house', order: 0, floor_id: null };
    last().deliver('hearth/devicehub/events/room.upsert', room);
    last().deliver('hearth/devicehub/events/room.upsert', { ...room, icon: 'rocket' });
    last().deliver('hearth/devicehub/events/room.removed', { id: 'r1' });
    last().deliver('hearth/devicehub/events/floor.upsert', { id: 'f1', name: 'Up', order: 0 });
    last().deliver('hearth/devicehub/events/floor.removed', { id: 'f1' });
    last().deliver('hearth/devicehub/events/favourites.changed', { user_id: 'u1' });
    expect(handlers.room.mock.calls.map(([event]) => event)).toEqual([
      { type: 'room.upsert', room },
      { type: 'room.removed', id: 'r1' },
      { type: 'floor.upsert', floor: { id: 'f1', name: 'Up', order: 0 } },
      { type: 'floor.removed', id: 'f1' },
      { type: 'favourites.changed', userId: 'u1' },
    ]);
    expect(handlers.upsert).not.toHaveBeenCalled();
  });

  it('routes the device bus status; ignores ones it does not understand', () => {
    const { stream, last, handlers } = setup();
    stream.start();
    last().emit('connect');
    last().deliver('hearth/devicehub/events/hub.status', {
      bus: 'offline',
      since: '2026-01-05T09:07:00.000Z',
    });
    last().deliver('hearth/devicehub/events/hub.status', { bus: 'sleepy', since: 'x' });
    last().deliver('hearth/devicehub/events/hub.status', { bus: 'online', since: 3 });
    last().deliver('hearth/devicehub/events/hub.status', {
      bus: 'online',
      since: '2026-01-05T09:08:00.000Z',
      bridge: 'offline',
    });
    expect(handlers.hubStatus.mock.calls).toEqual([
      [{ bus: 'offline', since: '2026-01-05T09:07:00.000Z' }],
      [{ bus: 'online', since: '2026-01-05T09:08:00.000Z', bridge: 'offline' }],
    ]);
  });

  it('reconnects 1500 ms after a connection loss', () => {
    const { stream, clients, last, handlers } = setup();
    stream.start();
    last().emit('connect');
    last().emit('close');
    expect(handlers.status).toHaveBeenLastCalledWith(false);
    expect(handlers.error).not.toHaveBeenCalledWith('Unable to connect to device stream');
    vi.advanceTimersByTime(1499);
    expect(clients).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(clients).toHaveLength(2);
  });

  it('says "Unable to connect to device stream" and retries 2000 ms after a failed connect', () => {
    const { stream, clients, last, handlers } = setup();
    stream.start();
    last().emit('error', new Error('refused'));
    last().emit('close');
    last().emit('close');
    expect(handlers.error).toHaveBeenLastCalledWith('Unable to connect to device stream');
    expect(handlers.status).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1999);
    expect(clients).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(clients).toHaveLength(2);
    last().emit('connect');
    expect(handlers.error).toHaveBeenLastCalledWith(null);
  });

  it('publishes commands at QoS 0, not retained, and refuses while down', async () => {
    const { stream, last } = setup();
    stream.start();
    await expect(
      stream.publish('set', { device_id: 'a', state: {} }, 'Not connected to device command channel'),
    ).rejects.toThrow('Not connected to device command channel');
    last().emit('connect');
    await stream.publish('rename', { device_id: 'a', name: 'B' }, 'x');
    expect(last().published).toEqual([
      {
        topic: 'hearth/devicehub/commands/device.rename',
        message: '{"device_id":"a","name":"B"}',
        options: { qos: 0, retain: false },
      },
    ]);
  });

  it('stops for good: no reconnect after stop()', () => {
    const { stream, clients, last, handlers } = setup();
    stream.start();
    last().emit('connect');
    stream.stop();
    expect(last().ended).toBe(true);
    expect(handlers.status).toHaveBeenLastCalledWith(false);
    last().emit('close');
    vi.advanceTimersByTime(10_000);
    expect(clients).toHaveLength(1);
  });
});

describe('streamUrl', () => {
  it.each([
    [{ protocol: 'http:', host: 'home.local:8080' }, 'ws://home.local:8080/ws/devicehub'],
    [{ protocol: 'https:', host: 'home.example' }, 'wss://home.example/ws/devicehub'],
  ])('%j → %s', (location, url) => {
    expect(streamUrl(location)).toBe(url);
  });
});
