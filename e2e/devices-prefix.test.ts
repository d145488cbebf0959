import mqtt from 'mqtt';
import type { WebSocket } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../server/test/wait.js';
import { DevicesPage, hubDevices } from './support/devices.page.js';
import { type Account, ADA, signUp } from './support/settings.page.js';
import { useE2e } from './support/suite.js';

// The README documents DEVICEHUB_TOPIC_PREFIX; the page must follow it (learned from GET /api/config).
describe('Devices page with DEVICEHUB_TOPIC_PREFIX=myhome', () => {
  const suite = useE2e({
    bus: true,
    env: { SIMULATOR: 'on', SIMULATOR_DROPOUTS: 'off', DEVICEHUB_TOPIC_PREFIX: 'myhome' },
  });
  let bus: mqtt.MqttClient;
  let admin: Account;
  let devices: DevicesPage;
  const sets: { topic: string; payload: Record<string, unknown> }[] = [];
  /** MQTT packets the page sent over its WebSocket, as text (topics are readable in them). */
  const framesSent: string[] = [];
  const requests: string[] = [];

  beforeAll(async () => {
    admin = await signUp(suite.server.url, ADA);
    bus = await mqtt.connectAsync(suite.server.busUrl, { protocolVersion: 4 });
    await bus.subscribeAsync('zigbee2mqtt/+/set');
    bus.on('message', (topic, payload) => sets.push({ topic, payload: JSON.parse(payload.toString()) }));
    devices = await DevicesPage.open(suite.browser, suite.server.url, admin);
    const watch = (socket: WebSocket) =>
      socket.on('framesent', ({ payload }) => framesSent.push(Buffer.from(payload).toString('latin1')));
    for (const socket of devices.sockets) watch(socket);
    devices.page.on('websocket', watch);
    devices.page.on('request', (request) =>
      requests.push(`${request.method()} ${new URL(request.url()).pathname}`),
    );
  });
  afterAll(async () => {
    await devices?.close();
    await bus?.endAsync();
  });

  it('shows a live state update from the bus on its tile, over the stream', async () => {
    await devices.text('State: connected').waitFor();
    await devices.tile('Bedroom climate').waitFor();
    const listCalls = () => requests.filter((request) => request === 'GET /api/devicehub/devices').length;
    const before = listCalls();
    // Zigbee2MQTT reports a new temperature; only the stream can bring it to the page. Reported
    // again every 500 ms until shown: "connected" comes before the stream's subscriptions are
    // acknowledged, and the simulator's own readings of this sensor may overwrite the first one.
    const report = () =>
      bus.publish('zigbee2mqtt/Bedroom climate', JSON.stringify({ temperature: 27.3, humidity: 48.2 }));
    report();
    const again = setInterval(report, 500);
    try {
      await devices.tile('Bedroom climate').getByText(/27\.3/).first().waitFor({ timeout: 10_000 });
    } finally {
      clearInterval(again);
    }
    expect(listCalls()).toBe(before);
    expect(devices.errors).toEqual([]);
  });

  it('sends a toggle over the stream on myhome/… and the command reaches the bus', async () => {
    const lamp = 'Living room lamp';
    await devices.power(lamp).waitFor();
    const wasOn = (await devices.power(lamp).getAttribute('aria-checked')) === 'true';
    await devices.power(lamp).click();
    await eventually(
      async () => sets.filter((message) => message.topic === `zigbee2mqtt/${lamp}/set`).at(-1),
      (payload) => payload !== undefined,
    );
    expect(
      sets.filter((message) => message.topic === `zigbee2mqtt/${lamp}/set`).at(-1)?.payload,
    ).toMatchObject({ state: wasOn ? 'OFF' : 'ON' });
    // It went over the stream, on the configured prefix, not over the REST fallback…
    expect(framesSent.some((frame) => frame.includes('myhome/devicehub/commands/device.set'))).toBe(true);
    expect(framesSent.some((frame) => frame.includes('hearth/devicehub'))).toBe(false);
    expect(requests.filter((request) => request.startsWith('POST /api/devicehub/'))).toEqual([]);
    // …and the simulated lamp's answer comes back live, while the stream stays up.
    await eventually(
      () => devices.power(lamp).getAttribute('aria-checked'),
      (checked) => checked === String(!wasOn),
    );
    await eventually(
      () => hubDevices(suite.server.url, admin),
      (list) => list.some((device) => device.name === lamp && device.state.state === (wasOn ? 'OFF' : 'ON')),
    );
    expect(devices.sockets.filter((socket) => socket.isClosed())).toEqual([]);
    expect(await devices.text('State: connected').count()).toBe(1);
    expect(await devices.text('Unable to connect to device stream').count()).toBe(0);
  });
});
