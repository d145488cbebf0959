import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app.js';
import { Zigbee2mqttAdapter } from './adapters/zigbee2mqtt/zigbee2mqtt.adapter.js';
import { BusWatch } from './bus-watch.js';
import { DevicesRepository } from './devicehub.repository.js';
import { registerDevicehubRoutes } from './devicehub.routes.js';
import { DeviceHubService } from './devicehub.service.js';
import { createEdgeBroker } from './edge/edge-broker.js';
import { Zigbee2mqttSimulator } from './simulator/simulator.js';
import { StateWriter } from './state-writer.js';

export interface DeviceHub {
  /** Whether the hub's parts are ready (used by /healthz). */
  ready(): boolean;
  close(): Promise<void>;
}

/** Starts the device hub: registry, adapters, simulator, REST routes and the browser edge broker. */
export async function startDeviceHub(app: FastifyInstance, context: AppContext): Promise<DeviceHub> {
  const { config, bus } = context;
  const log = context.log.child({ domain: 'devicehub' });
  const repository = new DevicesRepository(context.storage.db);
  const writer = new StateWriter(repository, log);
  const edge = await createEdgeBroker(app, context);
  const adapter = new Zigbee2mqttAdapter({ bus, baseTopic: config.zigbee2mqttBaseTopic, log });
  const service = new DeviceHubService({
    repository,
    adapter,
    edge,
    writer,
    log,
    maxDevices: config.devicehubMaxDevices,
  });
  await service.load();
  const watch = new BusWatch({ bus, edge, adapter, hub: service, log });
  watch.start();
  registerDevicehubRoutes(app, context, service, watch);
  edge.onCommand((command, user) => service.handleEdgeCommand(command, user));

  // Subscribing waits for the bus; an upstream broker that is still down must not hold up the
  // start (the bus retries and /healthz reports "devicehub" until the adapter is listening).
  const adapterStarted = adapter
    .start(service)
    .catch((error) => log.error({ err: error }, 'adapter failed to start'));
  const simulator = config.simulator
    ? new Zigbee2mqttSimulator({
        bus,
        baseTopic: config.zigbee2mqttBaseTopic,
        devices: config.simulatorDevices,
        log,
        dataDir: config.dataDir,
      })
    : undefined;
  // The simulator starts once the adapter listens: its first retained list must not race the
  // adapter's subscription.
  const simulatorStarted = simulator
    ? adapterStarted
        .then(() => simulator.start())
        .catch((error) => log.error({ err: error }, 'simulator failed to start'))
    : undefined;

  return {
    ready: () => adapter.ready(),
    close: async () => {
      await Promise.race([
        Promise.all([adapterStarted, simulatorStarted]),
        new Promise((r) => setTimeout(r, 1000)),
      ]);
      await simulator?.stop();
      watch.stop();
      await adapter.stop();
      service.stop();
      await service.settled();
      await writer.close();
      await edge.close();
    },
  };
}
