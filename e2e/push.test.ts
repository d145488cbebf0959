import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PushService, startPushService } from '../bench/push-service.mjs';
import { eventually } from '../server/test/wait.js';
import { hubDevices } from './support/devices.page.js';
import { type Account, apiCall, signUp } from './support/settings.page.js';
import { useE2e } from './support/suite.js';

/** A water leak sensor with a battery, as Zigbee2MQTT lists it. */
const leakSensor = (name: string, ieee: string) => ({
  ieee_address: ieee,
  type: 'EndDevice',
  network_address: 4102,
  supported: true,
  disabled: false,
  friendly_name: name,
  power_source: 'Battery',
  interview_completed: true,
  interviewing: false,
  definition: {
    model: 'SJCGQ11LM',
    vendor: 'Aqara',
    description: 'Water leak sensor',
    supports_ota: false,
    options: [],
    exposes: [
      {
        type: 'binary',
        name: 'water_leak',
        label: 'Water leak',
        property: 'water_leak',
        access: 1,
        value_on: true,
        value_off: false,
      },
      { type: 'numeric', name: 'battery', label: 'Battery', property: 'battery', access: 1, unit: '%' },
    ],
  },
});

/**
 * docs/alerts.md#web-push, issue 36 acceptance 2: Web Push end to end without the internet. A push
 * service on 127.0.0.1 over HTTPS (its own certificate, trusted through NODE_EXTRA_CA_CERTS) decrypts
 * what Hearth sends with http_ece and checks the payload, TTL, Urgency and the VAPID token; a
 * subscription answered 410 is deleted.
 */
describe('Web Push to a push service of our own', () => {
  let push: PushService;
  let z2m: MqttClient;
  let ada: Account;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    push = await startPushService();
  });
  const suite = useE2e({
    bus: true,
    env: () => ({ NODE_EXTRA_CA_CERTS: push.certFile, PUSH_ALLOW_PRIVATE_ENDPOINTS: '1' }),
  });
  const api = async <T>(method: string, route: string, body?: unknown) =>
    apiCall<T>(suite.server.url, method, route, body, ada.accessToken);

  beforeAll(async () => {
    ada = await signUp(suite.server.url, { first_name: 'Ada', last_name: 'Lovelace', user_name: 'ada' });
    z2m = await mqtt.connectAsync(suite.server.busUrl, { protocolVersion: 4 });
    const sensors = [
      leakSensor('Bathroom leak', '0x00158d0001a2b301'),
      leakSensor('Kitchen leak', '0x00158d0001a2b302'),
      leakSensor('Cellar leak', '0x00158d0001a2b303'),
    ];
    await z2m.publishAsync('zigbee2mqtt/bridge/devices', JSON.stringify(sensors), { retain: true });
    const listed = await eventually(
      () => hubDevices(suite.server.url, ada),
      (list) => sensors.every((sensor) => list.some((device) => device.name === sensor.friendly_name)),
    );
    for (const device of listed) ids[device.name] = device.id;
  });
  afterAll(async () => {
    await z2m?.endAsync();
    await push?.stop();
  });

  it('sends each subscription an aes128gcm message signed with the household VAPID key; 410 deletes one', async () => {
    const phone = push.subscribe('phone');
    const laptop = push.subscribe('laptop');
    expect((await api('POST', '/api/push/subscriptions', phone)).status).toBe(201);
    expect((await api('POST', '/api/push/subscriptions', laptop)).status).toBe(201);
    expect(
      (
        await api('POST', '/api/push/subscriptions', {
          ...phone,
          endpoint: phone.endpoint.replace('https:', 'http:'),
        })
      ).data,
    ).toEqual({
      error: 'endpoint must be an https: URL of at most 2000 characters',
    });
    const { data: key } = await api<{ public_key: string }>('GET', '/api/push/key');

    const sent = Date.now();
    await z2m.publishAsync('zigbee2mqtt/Bathroom leak', JSON.stringify({ water_leak: true, battery: 80 }));
    await push.until(() => push.to('phone').length === 1 && push.to('laptop').length === 1);
    const [message] = push.to('phone');
    if (!message) throw new Error('no message');
    expect(message.method).toBe('POST');
    expect(message.headers).toMatchObject({ ttl: '86400', urgency: 'high', 'content-encoding': 'aes128gcm' });
    expect(push.decrypt(message)).toEqual({
      title: 'Bathroom leak: Leak detected',
      body: expect.stringMatching(/^Since \d\d:\d\d\.$/),
      url: `/devices/${ids['Bathroom leak']}`,
      tag: expect.any(String),
      severity: 'critical',
      notification_id: expect.any(String),
    });
    const vapid = push.vapid(message);
    expect(vapid.header.alg).toBe('ES256');
    expect(vapid.key).toBe(key.public_key);
    expect(vapid.claims.aud).toBe(push.origin);
    expect(vapid.claims.sub).toBe('mailto:hearth@localhost');
    expect(vapid.claims.exp * 1000).toBeGreaterThan(sent);
    expect(vapid.claims.exp * 1000).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);

    // The laptop's browser has unsubscribed: its push service answers 410 Gone from now on.
    push.answer('laptop', 410);
    await z2m.publishAsync('zigbee2mqtt/Kitchen leak', JSON.stringify({ water_leak: true, battery: 80 }));
    await push.until(() => push.to('phone').length === 2 && push.to('laptop').length === 2);
    // A low battery (not critical): normal urgency, an hour to live; the laptop is no longer sent anything.
    await z2m.publishAsync('zigbee2mqtt/Cellar leak', JSON.stringify({ water_leak: false, battery: 9 }));
    await push.until(() => push.to('phone').length === 3);
    const low = push.to('phone')[2];
    if (!low) throw new Error('no message');
    expect(low.headers).toMatchObject({ ttl: '3600', urgency: 'normal' });
    expect(push.decrypt(low)).toMatchObject({
      title: 'Cellar leak: Low battery',
      body: 'Battery at 9 %.',
      severity: 'info',
    });
    expect(push.to('laptop')).toHaveLength(2);
    expect((await api('DELETE', '/api/push/subscriptions', { endpoint: laptop.endpoint })).status).toBe(404);
  });
});
