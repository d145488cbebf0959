import { useEffect, useMemo, useRef, useState } from 'react';
import { loadClientConfig } from '../../../shared/api/client-config.js';
import { useToast } from '../../../shared/toast/toast-context.js';
import type { BulkSendFn } from '../../rooms/room-actions.js';
import { createRoomsHub } from '../../rooms/use-rooms.js';
import {
  type DeviceListResult,
  fetchDevices,
  renameDevice as patchRename,
  postBulkCommands,
  postCommand,
} from '../api/devices.api.js';
import { FIRST_SCREEN } from '../api/devices.paths.js';
import { CommandWatch } from '../command-watch.js';
import { type ActionDeps, deliverCommand, renameDevice, sendAll, sendCommand } from '../device-actions.js';
import { MESSAGES } from '../devices.messages.js';
import type { DeviceCommand } from '../model/commands.js';
import type { DeviceView } from '../model/device.types.js';
import { DeviceStore } from '../store/device-store.js';
import { SelectionStore } from '../store/selection-store.js';
import {
  type ConnectFn,
  DeviceStream,
  RETRY_AFTER_FAILURE_MS,
  type StreamClientLike,
} from '../stream/device-stream.js';
import { streamUrl } from '../stream/topics.js';

export interface HubActions {
  send(device: DeviceView, command: DeviceCommand | null): Promise<void>;
  rename(device: DeviceView, name: string): ReturnType<typeof renameDevice>;
  /** Sends without touching the page's error card; resolves with the failure's message or null. */
  deliver(device: DeviceView, command: DeviceCommand): Promise<string | null>;
  /** Several devices in one call, each confirmed by its state (docs/screens.md#room-actions). */
  sendAll: BulkSendFn;
}

/**
 * MQTT.js (most of this page's code) is fetched while the device list loads instead of before
 * the page can render; the stream client gets a client whose calls wait for it.
 */
const lazyConnect: ConnectFn = (url, options) => {
  const listeners: [string, (...args: never[]) => void][] = [];
  const calls: ((client: StreamClientLike) => void)[] = [];
  let real: StreamClientLike | null = null;
  let ended = false;
  void import('mqtt').then(
    ({ default: mqtt }) => {
      if (ended) return;
      real = (mqtt.connect as unknown as ConnectFn)(url, options);
      for (const [event, listener] of listeners) real.on(event as 'close', listener as () => void);
      for (const call of calls) call(real);
    },
    () => {
      for (const [event, listener] of listeners) if (event === 'close') (listener as () => void)();
    },
  );
  const later = (call: (client: StreamClientLike) => void) => (real ? call(real) : calls.push(call));
  return {
    on(event: string, listener: (...args: never[]) => void) {
      if (real) real.on(event as 'close', listener as () => void);
      else listeners.push([event, listener]);
      return this;
    },
    subscribe: (topics, subscribeOptions) => later((client) => client.subscribe(topics, subscribeOptions)),
    publish: (topic, message, publishOptions, callback) =>
      later((client) => client.publish(topic, message, publishOptions, callback)),
    end: (force) => {
      ended = true;
      later((client) => client.end(force));
    },
  } as StreamClientLike;
};

interface HubViewer {
  enabled: boolean;
  accessToken: string | null;
  username: string | null;
  /** The signed-in user's id: their browsers re-read favourites on `favourites.changed` naming it. */
  userId?: string | null;
  /**
   * What is fetched and drawn before the whole list: the Devices page's first screen (`?first=30`,
   * the default), the devices a page fetches itself (the home page's favourites), or nothing.
   */
  firstScreen?: boolean | (() => Promise<DeviceListResult>);
}

/**
 * Owns the store and the stream while the viewer may see devices (docs/screens.md#device-list-and-stream): loads the REST
 * list, keeps the stream up, reloads the list after a reconnect, and tears everything down and
 * clears it when the viewer signs out or loses the role.
 */
export function useDeviceHub({
  enabled,
  accessToken,
  username,
  userId = null,
  firstScreen = true,
}: HubViewer) {
  const [store] = useState(() => new DeviceStore());
  // docs/screens.md#device-tile: every command sent is followed until the device's state confirms it.
  const [watch] = useState(() => new CommandWatch(store));
  const userIdRef = useRef(userId);
  userIdRef.current = userId;
  // Rooms, floors and favourites (docs/rooms.md), kept live by the same stream.
  const [rooms] = useState(() => createRoomsHub(() => userIdRef.current));
  const [selection] = useState(() => new SelectionStore());
  const streamRef = useRef<DeviceStream | null>(null);
  const tokenRef = useRef(accessToken);
  tokenRef.current = accessToken;
  // docs/access.md: a command the stream refused comes back on the reply topic; its reason is a toast.
  const { showToast } = useToast();
  const toastRef = useRef(showToast);
  toastRef.current = showToast;

  useEffect(() => {
    if (!enabled) return;
    let active = true;
    const load = async (first: HubViewer['firstScreen'] = false, then?: () => void) => {
      // The first screen's devices come alone first, so its tiles show before the whole list
      // (10 MB for 2000 real devices) is fetched; a failure here is the whole list's to report.
      if (first) {
        const screen = await (first === true ? fetchDevices(FIRST_SCREEN) : first()).catch(
          (): DeviceListResult => ({ ok: false, reason: MESSAGES.listFailed }),
        );
        if (!active) return;
        if (screen.ok) {
          // Fewer than the first screen asks for: that is every device, nothing more will come.
          const partial = first !== true || screen.devices.length >= FIRST_SCREEN;
          store.loadFirst(screen.devices, { partial });
          // The rest waits until those tiles are drawn: the server's and the browser's work on the
          // whole list and on the stream's retained states took the CPU the first tiles needed.
          await afterNextPaint();
          if (!active) return;
        }
      }
      then?.();
      const result = await fetchDevices();
      if (!active) return;
      if (result.ok) {
        store.loadList(result.devices);
        store.clearError(MESSAGES.listFailed);
      } else {
        console.warn(`device list: ${result.reason}`);
        store.setStatus({
          loading: false,
          partial: false,
          metadata: { connected: false, source: null },
          error: MESSAGES.listFailed,
        });
      }
    };
    let everConnected = false;
    let stream: DeviceStream | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    // The stream's topics carry the server's prefix: the stream starts once the app knows it.
    const startStream = async () => {
      let topicPrefix: string;
      try {
        topicPrefix = (await loadClientConfig()).devicehub_topic_prefix;
      } catch {
        if (!active) return;
        store.setStatus({ error: MESSAGES.streamFailed });
        retry = setTimeout(startStream, RETRY_AFTER_FAILURE_MS);
        return;
      }
      if (!active) return;
      stream = new DeviceStream({
        url: streamUrl(window.location),
        connect: lazyConnect,
        topicPrefix,
        credentials: () =>
          tokenRef.current ? { username: username ?? 'hearth', password: tokenRef.current } : {},
        handlers: {
          state: (id, state) => store.applyState(id, state),
          upsert: (device) => store.upsert(device),
          removed: (payload) => store.remove(payload),
          hubStatus: (bus) => store.setStatus({ bus }),
          room: (event) => rooms.feed.emit(event),
          refused: (refusal) => toastRef.current(refusal.error),
          // docs/screens.md#devices-of-other-sources: the device refused it or never answered: on its tile.
          failed: (failure) => {
            watch.forget(failure.device_id);
            store.setFailure(failure.device_id, failure.error);
          },
          status: (connected) => {
            store.setStatus({ stream: { connected } });
            // Whatever changed while we were away (removals, renames) comes back with the list.
            if (connected && everConnected) void load();
            // Rooms and favourites read before the first connection may have changed before its
            // subscriptions held (a star from another browser then): read them again on every one.
            if (connected) rooms.feed.emit({ type: 'resync' });
            if (connected) everConnected = true;
          },
          error: (message) => {
            if (message) store.setStatus({ error: message });
            else store.clearError(MESSAGES.streamFailed);
          },
        },
      });
      streamRef.current = stream;
      stream.start();
    };
    void load(firstScreen, () => {
      // MQTT.js loads while the configuration and the list are being fetched.
      void import('mqtt').catch(() => {});
      void startStream();
    });
    return () => {
      active = false;
      clearTimeout(retry);
      stream?.stop();
      streamRef.current = null;
      store.clear();
      watch.clear();
      rooms.rooms.clear();
      rooms.favourites.clear();
      selection.stop();
    };
  }, [enabled, store, watch, username, rooms, selection, firstScreen]);

  const actions = useMemo<HubActions>(() => {
    const deps: ActionDeps = {
      store,
      publish: (kind, payload, notConnected) =>
        streamRef.current
          ? streamRef.current.publish(kind, payload, notConnected)
          : Promise.reject(new Error(notConnected)),
      streamConnected: () => streamRef.current?.isConnected ?? false,
      accessToken: () => tokenRef.current,
      postCommand,
      postBulk: postBulkCommands,
      renameDevice: patchRename,
      watch,
    };
    return {
      send: (device, command) => sendCommand(deps, device, command),
      rename: (device, name) => renameDevice(deps, device, name),
      deliver: (device, command) => deliverCommand(deps, device, command),
      sendAll: (plan, onConfirmed) => sendAll(deps, plan, onConfirmed),
    };
  }, [store, watch]);

  return { store, actions, rooms, selection };
}

/** Resolves once the next frame has been painted; in a hidden tab, where no frame runs, after 100 ms. */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    const fallback = setTimeout(resolve, 100);
    if (typeof requestAnimationFrame !== 'function') return;
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(fallback);
        resolve();
      }, 0),
    );
  });
}
