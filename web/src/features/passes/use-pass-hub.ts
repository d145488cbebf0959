import { PASS_STREAM_USERNAME, type PassInfo } from '@hearth/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { loadClientConfig } from '../../shared/api/client-config.js';
import { answerError } from '../devices/api/devices.api.js';
import type { DeviceCommand } from '../devices/model/commands.js';
import type { DeviceView, Json } from '../devices/model/device.types.js';
import { DeviceStore } from '../devices/store/device-store.js';
import { type ConnectFn, DeviceStream } from '../devices/stream/device-stream.js';
import { streamUrl } from '../devices/stream/topics.js';
import { guestApi } from './passes.api.js';
import { guestNotice } from './passes.format.js';
import { GUEST_MESSAGES as G } from './passes.messages.js';

/** Where the guest's page stands. */
export type PassPageState =
  | { kind: 'loading' }
  | { kind: 'open'; info: PassInfo }
  | { kind: 'closed'; info: PassInfo | null; message: string };

/** The pass is asked again at most this often while its stream is down (it retries every 2 s). */
const RECHECK_MS = 500;
/** While the pass does not work yet: asked again this often (and at its next start). */
const WAIT_MS = 30_000;

const connectMqtt: ConnectFn = (url, options) => {
  // MQTT.js comes with this page only; a client whose calls wait for it.
  let real: ReturnType<ConnectFn> | null = null;
  const queued: ((client: ReturnType<ConnectFn>) => void)[] = [];
  const later = (call: (client: ReturnType<ConnectFn>) => void) => (real ? call(real) : queued.push(call));
  void import('mqtt').then(({ default: mqtt }) => {
    real = (mqtt.connect as unknown as ConnectFn)(url, options);
    for (const call of queued) call(real);
  });
  return {
    on(event: 'close', listener: () => void) {
      later((client) => client.on(event, listener));
      return this;
    },
    subscribe: (topics, subscribeOptions) => later((client) => client.subscribe(topics, subscribeOptions)),
    publish: (topic, message, publishOptions, callback) =>
      later((client) => client.publish(topic, message, publishOptions, callback)),
    end: (force) => later((client) => client.end(force)),
  } as ReturnType<ConnectFn>;
};

/**
 * docs/passes.md#stream: the guest's page. Reads the pass; while it works, loads its devices and
 * keeps them live over /ws/devicehub (user name `pass`, the token as password). When the stream
 * drops (the server cuts a revoked, paused or ended pass at once) the pass is read again and the
 * page says why it stopped.
 */
export function usePassHub(token: string) {
  const [store] = useState(() => new DeviceStore());
  const [state, setState] = useState<PassPageState>({ kind: 'loading' });
  const [live, setLive] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const levels = useRef(new Map<string, string>());
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` opens the page again on purpose (Try again; a command refused because the pass stopped).
  useEffect(() => {
    let active = true;
    let stream: DeviceStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let checkedAt = 0;
    // The page keeps the pass's name once it has read it (a revoked pass answers 404, nameless).
    let known: PassInfo | null = null;

    const close = (info: PassInfo | null, message: string) => {
      stream?.stop();
      stream = null;
      store.clear();
      setLive(false);
      setState({ kind: 'closed', info: info ?? known, message });
    };
    const later = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => void check(), Math.max(500, Math.min(ms, 2 ** 31 - 1)));
    };

    /** Reads the pass; opens the page when it works, closes it with the reason when it does not. */
    const check = async (): Promise<void> => {
      checkedAt = Date.now();
      const answer = await guestApi.info(token);
      if (!active) return;
      if (!answer.success) {
        if (answer.status === 404) return close(null, G.notFound);
        close(null, answer.status === 429 ? G.tooMany : G.failed);
        return later(answer.status === 429 ? 60_000 : WAIT_MS);
      }
      const info = answer.data;
      known = info;
      const notice = guestNotice(info);
      if (notice) {
        close(info, notice);
        // Not yet, or paused: it may work later without the guest reloading; ended: it never will.
        if (info.status === 'scheduled')
          later(info.next_start ? Date.parse(info.next_start) - Date.now() + 500 : WAIT_MS);
        if (info.status === 'paused') later(WAIT_MS);
        return;
      }
      if (info.ends_at) later(Date.parse(info.ends_at) - Date.now() + 500);
      if (stream) return setState({ kind: 'open', info });
      const devices = await guestApi.devices(token);
      if (!active) return;
      if (!devices.success) {
        // It stopped working between the two calls: say why.
        return void (devices.status === 403 || devices.status === 404 ? check() : close(info, G.failed));
      }
      levels.current = new Map(devices.data.map((device) => [device.id, device.access]));
      store.loadList(devices.data as unknown as Json[]);
      setState({ kind: 'open', info });
      void startStream();
    };

    const recheck = () => {
      if (Date.now() - checkedAt < RECHECK_MS) return later(RECHECK_MS);
      void check();
    };

    const startStream = async () => {
      const topicPrefix = (await loadClientConfig().catch(() => null))?.devicehub_topic_prefix;
      if (!active || !topicPrefix || stream) return;
      stream = new DeviceStream({
        url: streamUrl(window.location),
        connect: connectMqtt,
        topicPrefix,
        credentials: () => ({ username: PASS_STREAM_USERNAME, password: token }),
        handlers: {
          state: (id, value) => store.applyState(id, value),
          upsert: (device) => store.upsert(device),
          removed: (payload) => store.remove(payload),
          hubStatus: (bus) => store.setStatus({ bus }),
          status: (connected) => {
            setLive(connected);
            if (!connected) recheck();
          },
          error: (message) => {
            if (message) recheck();
          },
        },
      });
      stream.start();
    };

    void check();
    return () => {
      active = false;
      clearTimeout(timer);
      stream?.stop();
      store.clear();
    };
  }, [token, store, attempt]);

  const levelOf = useCallback(
    (device: DeviceView) =>
      (device.id && levels.current.get(device.id)) ?? (state.kind === 'open' ? state.info.level : 'view'),
    [state],
  );

  const send = useCallback(
    async (device: DeviceView, command: DeviceCommand | null) => {
      if (!command || !device.id) return;
      store.setPending(device.key, true);
      const result = await guestApi.command(token, device.id, command);
      store.setPending(device.key, false);
      const failure = result.status === 0 ? G.commandFailed : answerError(result as never, G.commandFailed);
      setError(failure);
      // The pass stopped working meanwhile: the page says why.
      if (result.status === 403 || (result.status === 404 && failure !== 'Device not found'))
        setAttempt((n) => n + 1);
    },
    [store, token],
  );

  return { store, state, live, error, levelOf, send, retry: () => setAttempt((n) => n + 1) };
}
