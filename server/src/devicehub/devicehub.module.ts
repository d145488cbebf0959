import type { IncomingMessage } from 'node:http';
import type { ActivityActor, Device, DeviceCommandRequest, DevicehubStatus } from '@hearth/contracts';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { TokenReader } from '../accounts/index.js';
import { type ActivityLog, noActivity } from '../activity/index.js';
import type { Bus } from '../bus/bus.js';
import type { BusProbeResult } from '../bus/bus-probe.js';
import type { Module } from '../lifecycle/module.js';
import type { Database } from '../storage/schema.js';
import type { Guards } from '../users/index.js';
import type { DeviceAdapter } from './adapters/adapter.js';
import {
  PROTOCOL as HOME_ASSISTANT,
  HomeAssistantAdapter,
} from './adapters/homeassistant/homeassistant.adapter.js';
import { PROTOCOL as SHELLY, ShellyAdapter } from './adapters/shelly/shelly.adapter.js';
import { PROTOCOL as TASMOTA, TasmotaAdapter } from './adapters/tasmota/tasmota.adapter.js';
import { Zigbee2mqttAdapter } from './adapters/zigbee2mqtt/zigbee2mqtt.adapter.js';
import { BusWatch } from './bus-watch.js';
import { DevicesRepository } from './devicehub.repository.js';
import { registerDevicehubRoutes } from './devicehub.routes.js';
import { actorOf, DeviceHubService, type DeviceListener } from './devicehub.service.js';
import { createEdgeBroker, type EdgeBroker, type EventAudience } from './edge/edge-broker.js';
import type { ApiTokenAuthenticator, PassAuthenticator } from './edge/edge-connect.js';
import { type Principal, type Reach, type ReachSource, roleReach } from './reach.js';
import { Zigbee2mqttSimulator } from './simulator/simulator.js';
import { registerSourcesRoutes, SourcesService } from './sources/index.js';
import { StateWriter } from './state-writer.js';
import { AdvisoryWriterLease, soleWriter } from './writer-lease.js';

export interface DeviceHubModuleDeps {
  db: Kysely<Database>;
  bus: Bus;
  log: Logger;
  guards: Guards;
  /** Who is behind the access token a browser's stream presents. */
  auth: TokenReader;
  publicUrl: string;
  zigbee2mqttBaseTopic: string;
  /** HA_DISCOVERY_PREFIX: Home Assistant MQTT discovery's prefix; undefined: that source is off. */
  haDiscoveryPrefix?: string | undefined;
  /** TASMOTA_DISCOVERY_PREFIX: Tasmota's native discovery; undefined: that source is off. */
  tasmotaDiscoveryPrefix?: string | undefined;
  /** SHELLY_TOPIC_PREFIXES beside the top level; undefined: Shelly is off. */
  shellyTopicPrefixes?: string[] | undefined;
  /** Hearth's `src` in Shelly RPC (replies come on `<src>/rpc`); one of its own when not given. */
  shellySource?: string;
  devicehubTopicPrefix: string;
  /** Most devices the registry lists at once (DEVICEHUB_MAX_DEVICES). */
  maxDevices: number;
  /** SIMULATOR: how many virtual devices, or undefined for none. */
  simulatorDevices: number | undefined;
  /** Simulated devices drop off the network now and then (default true). */
  simulatorDropouts?: boolean;
  /** Where the simulator keeps the names it was given. */
  dataDir: string;
  /** The bus probe's latest result, which GET /api/devicehub/status adds for admins. */
  busProbe?: { readonly latest: BusProbeResult };
  /**
   * PostgreSQL: several instances may share the registry, so one at a time writes device state
   * (an advisory lock) and the others follow the registry's online flags and last seen.
   */
  dialect?: 'sqlite' | 'postgres';
  /** MQTT_URL is set: other instances may share the bus (one simulator publishes on it). */
  sharedBus?: boolean;
  /** Where commands and renames are recorded (docs/activity.md); none: not recorded. */
  activity?: ActivityLog;
  /** Every caller's reach (docs/access.md); none: the roles' defaults (residents and admins everything). */
  reach?: ReachSource;
  /** Guest passes' stream connections (username `pass`, the token as password); none: refused. */
  passes?: PassAuthenticator;
  /** Scripts' stream connections (an API token as the password); none: refused. */
  apiTokens?: ApiTokenAuthenticator;
  /** A stream upgrade's client address (TRUST_PROXY applied); none: the socket's peer. */
  clientAddress?: (request: IncomingMessage) => string;
}

/** How often an instance that does not write device state reads online flags and last seen. */
const PRESENCE_SYNC_MS = 2000;

/** What the rooms domain uses of the hub (docs/rooms.md#assignment, docs/rooms.md#events). */
export interface DeviceDirectory {
  /** Whether the hub lists this device (removed ones are not listed). */
  has(id: string): boolean;
  /** The room of a listed device now (null: unassigned; undefined: not listed). */
  roomOf(id: string): string | null | undefined;
  /** These devices' new room is stored: the hub's devices follow, with a `device.upsert` each. */
  roomsAssigned(ids: readonly string[], roomId: string | null): void;
  /**
   * Publishes a JSON event to browsers; `topic` is relative to P (e.g. `events/room.upsert`).
   * `managers`: only residents' and admins' connections get it (automations, scenes); rooms and
   * devices: only the connections that see one of them (floors, a removed room).
   */
  publishEvent(topic: string, payload: unknown, audience?: EventAudience): void;
}

/** What the history domain uses of the hub: a device by id, and its updates as they happen. */
export interface DeviceFeed {
  /** The listed device, or undefined (removed or unknown). */
  find(id: string): Device | undefined;
  /** Adds a listener of state and availability updates; returns its removal. */
  listen(listener: DeviceListener): () => void;
  /** Whether this instance writes device state (of instances sharing a database, one does). */
  writes(): boolean;
  /** Every listed device as the hub holds it (no access levels added, nothing copied): alerts' sweeps. */
  all(): Iterable<Device>;
  /** Whether the device's availability has been heard since this instance started (alerts' offline rule). */
  reportsAvailability(id: string): boolean;
  /** The bus and Zigbee2MQTT's bridge as GET /api/devicehub/status has them (alerts' hub rule). */
  hubStatus(): DevicehubStatus;
}

/**
 * What guest passes use of the hub (docs/access.md#reach): their devices with their level, and
 * commands checked against a pass's reach.
 */
export interface DeviceGate {
  /** The listed devices the reach may view, each with its `access`. */
  visible(reach: Reach): Device[];
  /** A command checked against the reach (404 out of reach, 403 view-only), recorded with `actor`. */
  command(
    reach: Reach,
    actor: Principal,
    deviceId: string,
    request: DeviceCommandRequest,
    origin?: { ip?: string; client?: string },
  ): Promise<{ device_id: string; status: 'sent' }>;
  /**
   * A command checked against the reach, recorded with `actor` as it is (an automation acting for
   * its owner, docs/automations.md#activity).
   */
  commandAs(
    reach: Reach,
    actor: ActivityActor,
    deviceId: string,
    request: DeviceCommandRequest,
  ): Promise<{ device_id: string; status: 'sent' }>;
  /** The matching stream connections read their reach again (a pass paused, revoked, expired). */
  reachChanged(match: (principal: Principal) => boolean): Promise<void>;
}

export interface DeviceHubModule extends Module {
  /** Usable once the module is registered. */
  devices: DeviceDirectory;
  /** Usable once the module is registered. */
  feed: DeviceFeed;
  /** Usable once the module is registered. */
  gate: DeviceGate;
}

/** The device hub: registry, adapters, simulator, REST routes and the browser edge broker. */
export function deviceHubModule(deps: DeviceHubModuleDeps): DeviceHubModule {
  const { bus, zigbee2mqttBaseTopic: baseTopic } = deps;
  const log = deps.log.child({ domain: 'devicehub' });
  const reach = deps.reach ?? roleReach;
  const repository = new DevicesRepository(deps.db);
  const lease = deps.dialect === 'postgres' ? new AdvisoryWriterLease(deps.db, log) : soleWriter();
  const writer = new StateWriter(repository, log, 1000, lease);
  let presenceSync: NodeJS.Timeout | undefined;
  const adapter = new Zigbee2mqttAdapter({ bus, baseTopic, log });
  // Every source of devices; the hub routes each device to the adapter of its protocol.
  const adapters: DeviceAdapter[] = [adapter];
  if (deps.haDiscoveryPrefix !== undefined)
    adapters.push(
      new HomeAssistantAdapter({
        bus,
        prefix: deps.haDiscoveryPrefix,
        log,
        zigbee2mqttBaseTopic: baseTopic,
        storedNames: () => repository.namesByExternalId(HOME_ASSISTANT),
      }),
    );
  if (deps.tasmotaDiscoveryPrefix !== undefined)
    adapters.push(
      new TasmotaAdapter({
        bus,
        prefix: deps.tasmotaDiscoveryPrefix,
        log,
        storedNames: () => repository.namesByExternalId(TASMOTA),
      }),
    );
  if (deps.shellyTopicPrefixes !== undefined)
    adapters.push(
      new ShellyAdapter({
        bus,
        log,
        prefixes: ['+', ...deps.shellyTopicPrefixes],
        src: deps.shellySource ?? `hearth-shelly-${crypto.randomUUID().slice(0, 8)}`,
        storedNames: () => repository.namesByExternalId(SHELLY),
        // A device offline at start keeps its description in the complete list.
        storedDevices: () => repository.all(),
      }),
    );
  const simulator =
    deps.simulatorDevices === undefined
      ? undefined
      : new Zigbee2mqttSimulator({
          bus,
          baseTopic,
          devices: deps.simulatorDevices,
          ...(deps.simulatorDropouts === false ? { availabilityFlipsPerSecond: 0 } : {}),
          log,
          dataDir: deps.dataDir,
          storedNames: () => repository.namesByExternalId(adapter.protocol),
          sharedBus: deps.sharedBus ?? false,
        });
  let edge: EdgeBroker | undefined;
  let service: DeviceHubService | undefined;
  let watch: BusWatch | undefined;
  let started: Promise<unknown> = Promise.resolve();
  const hub = () => {
    if (!service) throw new Error('the device hub is used before it is registered');
    return service;
  };

  return {
    name: 'devicehub',
    devices: {
      has: (id) => hub().has(id),
      roomOf: (id) => hub().roomOf(id),
      roomsAssigned: (ids, roomId) => hub().roomsAssigned(ids, roomId),
      publishEvent: (topic, payload, audience) => hub().publishEvent(topic, payload, audience),
    },
    gate: {
      visible: (reach) => hub().visibleTo(reach, hub().list()),
      command: (reach, actor, deviceId, request, origin = {}) =>
        hub().commandAs({ actor: actorOf(actor), origin, reach: () => reach }, deviceId, request),
      commandAs: (reach, actor, deviceId, request) =>
        hub().commandAs({ actor, reach: () => reach }, deviceId, request),
      reachChanged: async (match) => {
        await edge?.reachChanged(match);
      },
    },
    feed: {
      find: (id) => (hub().has(id) ? hub().get(id) : undefined),
      listen: (listener) => hub().listen(listener),
      writes: () => lease.isHolder(),
      all: () => hub().list(),
      reportsAvailability: (id) => hub().reportsAvailability(id),
      hubStatus: () => watch?.status() ?? { ...bus.status(), bridge: null },
    },
    async register(app) {
      edge = await createEdgeBroker(app, {
        auth: deps.auth,
        publicUrl: deps.publicUrl,
        topicPrefix: deps.devicehubTopicPrefix,
        db: deps.db,
        log,
        reach,
        ...(deps.passes ? { passes: deps.passes } : {}),
        ...(deps.apiTokens ? { apiTokens: deps.apiTokens } : {}),
        ...(deps.clientAddress ? { clientAddress: deps.clientAddress } : {}),
      });
      const hub = new DeviceHubService({
        repository,
        adapters,
        edge,
        writer,
        log,
        maxDevices: deps.maxDevices,
        activity: deps.activity ?? noActivity,
      });
      const busWatch = new BusWatch({ bus, edge, adapters, hub, log });
      edge.onCommand((command, caller) => hub.handleEdgeCommand(command, caller));
      edge.attach({ devices: () => hub.list(), get: (id) => (hub.has(id) ? hub.get(id) : undefined) });
      registerDevicehubRoutes(
        app,
        deps.guards,
        hub,
        busWatch,
        deps.busProbe,
        deps.activity ?? noActivity,
        reach,
      );
      // docs/api.md#sources: the admins' Sources page.
      const sources = new SourcesService({
        adapters,
        topics: {
          zigbee: [baseTopic],
          homeassistant: deps.haDiscoveryPrefix === undefined ? undefined : [deps.haDiscoveryPrefix],
          tasmota: deps.tasmotaDiscoveryPrefix === undefined ? undefined : [deps.tasmotaDiscoveryPrefix],
          shelly: deps.shellyTopicPrefixes === undefined ? undefined : ['+', ...deps.shellyTopicPrefixes],
        },
        devices: () => hub.list(),
      });
      registerSourcesRoutes(app, deps.guards, sources, deps.activity ?? noActivity);
      service = hub;
      watch = busWatch;
    },
    async start() {
      if (!service) throw new Error('the device hub starts after it is registered');
      await service.load();
      const hub = service;
      // Before the lease: an instance that takes it at once writes its whole view, and a view of
      // "offline until the bus says otherwise" would overwrite what the others saw (a device
      // without availability reports is online only by the registry's word), which they adopt.
      if (deps.dialect === 'postgres') hub.adoptPresence(await repository.presence());
      lease.onChange((holder) => {
        if (holder) hub.markAllForWriter();
      });
      lease.start();
      if (deps.dialect === 'postgres') {
        let syncing = false;
        presenceSync = setInterval(() => {
          if (lease.isHolder() || syncing) return;
          syncing = true;
          repository
            .presence()
            .then((rows) => hub.adoptPresence(rows))
            .catch((error) => log.debug({ err: error }, 'reading device presence failed'))
            .finally(() => {
              syncing = false;
            });
        }, PRESENCE_SYNC_MS);
        presenceSync.unref();
      }
      watch?.start();
      // Subscribing waits for the bus; an upstream broker that is still down must not hold up the
      // start (the bus retries and /healthz reports "devicehub" until the adapter is listening).
      const adapterStarted = Promise.all(
        adapters.map((each) =>
          each
            .start(hub.events(each.protocol))
            .catch((error) => log.error({ err: error, protocol: each.protocol }, 'adapter failed to start')),
        ),
      );
      // The simulator starts once the adapter listens: its first retained list must not race the
      // adapter's subscription.
      const simulatorStarted = adapterStarted
        .then(() => simulator?.start())
        .catch((error) => log.error({ err: error }, 'simulator failed to start'));
      started = Promise.all([adapterStarted, simulatorStarted]);
    },
    ready: () => adapters.every((each) => each.ready()),
    async close() {
      await Promise.race([started, new Promise((resolve) => setTimeout(resolve, 1000))]);
      await simulator?.stop();
      watch?.stop();
      await Promise.all(adapters.map((each) => each.stop()));
      service?.stop();
      await service?.settled();
      clearInterval(presenceSync);
      await writer.close();
      // After the last flush: another instance takes over from what is stored.
      await lease.stop();
      await edge?.close();
    },
  };
}
