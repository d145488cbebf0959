import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config.js';

describe('parseConfig', () => {
  it('gives the embedded defaults of DESIGN.md with no environment at all', () => {
    const config = parseConfig({}, '/srv/hearth');
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      publicUrl: 'http://localhost:8080',
      dataDir: '/srv/hearth/data',
      databaseUrl: undefined,
      mailFrom: 'Hearth <hearth@localhost>',
      mqttUrl: undefined,
      zigbee2mqttBaseTopic: 'zigbee2mqtt',
      devicehubTopicPrefix: 'hearth',
      simulator: true,
      simulatorDropouts: true,
      authRateLimit: 60,
      logLevel: 'info',
      oidc: undefined,
      databaseConnectTimeoutMs: 60_000,
      devicehubMaxDevices: 5000,
      mqttListenPort: undefined,
      mqttListenHost: '127.0.0.1',
      mqttListenUsername: undefined,
      mqttListenTls: undefined,
    });
  });

  it('reads the broker listener settings, TLS files relative to the working directory', () => {
    const config = parseConfig(
      {
        MQTT_LISTEN_PORT: '1883',
        MQTT_LISTEN_HOST: '0.0.0.0',
        MQTT_LISTEN_USERNAME: 'z2m',
        MQTT_LISTEN_PASSWORD: 'a-long-password',
        MQTT_LISTEN_TLS_CERT: 'package.json',
        MQTT_LISTEN_TLS_KEY: 'package.json',
      },
      process.cwd(),
    );
    expect(config).toMatchObject({
      mqttListenPort: 1883,
      mqttListenHost: '0.0.0.0',
      mqttListenUsername: 'z2m',
      mqttListenPassword: 'a-long-password',
      mqttListenTls: { port: 8883, certFile: `${process.cwd()}/package.json` },
    });
  });

  it.each([
    [
      { MQTT_LISTEN_USERNAME: 'z2m' },
      'Invalid MQTT_LISTEN_PASSWORD "": expected to be set together with MQTT_LISTEN_USERNAME',
    ],
    [
      { MQTT_LISTEN_PASSWORD: 'a-long-password' },
      'Invalid MQTT_LISTEN_USERNAME "": expected to be set together with MQTT_LISTEN_PASSWORD',
    ],
    [
      { MQTT_LISTEN_USERNAME: 'z2m', MQTT_LISTEN_PASSWORD: 'short' },
      'Invalid MQTT_LISTEN_PASSWORD "short": expected a password of 12-256 characters',
    ],
    [
      { MQTT_LISTEN_USERNAME: 'a:b', MQTT_LISTEN_PASSWORD: 'a-long-password' },
      'Invalid MQTT_LISTEN_USERNAME "a:b": expected a user name of 1-64 characters without spaces or ":"',
    ],
    [
      { MQTT_LISTEN_TLS_CERT: 'cert.pem' },
      'Invalid MQTT_LISTEN_TLS_KEY "": expected to be set together with MQTT_LISTEN_TLS_CERT',
    ],
    [
      { MQTT_LISTEN_TLS_PORT: '8883' },
      'Invalid MQTT_LISTEN_TLS_CERT "": expected to be set together with MQTT_LISTEN_TLS_PORT',
    ],
    [
      { MQTT_LISTEN_TLS_CERT: '/nonexistent/cert.pem', MQTT_LISTEN_TLS_KEY: '/nonexistent/key.pem' },
      'Invalid MQTT_LISTEN_TLS_CERT "/nonexistent/cert.pem": expected a readable PEM certificate file',
    ],
  ])('refuses an incomplete or invalid broker listener: %o', (env, message) => {
    expect(() => parseConfig(env)).toThrow(new ConfigError(message));
  });

  it('follows PORT in the default PUBLIC_URL and turns the simulator off with an upstream broker', () => {
    const config = parseConfig({ PORT: '9090', MQTT_URL: 'mqtt://broker.lan:1883' });
    expect(config.publicUrl).toBe('http://localhost:9090');
    expect(config.simulator).toBe(false);
    expect(parseConfig({ MQTT_URL: 'mqtt://b:1883', SIMULATOR: 'on' }).simulator).toBe(true);
  });

  it('reads Home Assistant discovery on under homeassistant unless told a prefix or off', () => {
    expect(parseConfig({}).haDiscoveryPrefix).toBe('homeassistant');
    expect(parseConfig({ HA_DISCOVERY_PREFIX: 'my_home/ha' }).haDiscoveryPrefix).toBe('my_home/ha');
    expect(parseConfig({ HA_DISCOVERY_PREFIX: 'off' }).haDiscoveryPrefix).toBeUndefined();
  });

  it("reads Tasmota's discovery on under tasmota/discovery, and Shelly at the top level, unless told more or off", () => {
    expect(parseConfig({}).tasmotaDiscoveryPrefix).toBe('tasmota/discovery');
    expect(parseConfig({ TASMOTA_DISCOVERY_PREFIX: 'home/tasmota' }).tasmotaDiscoveryPrefix).toBe(
      'home/tasmota',
    );
    expect(parseConfig({ TASMOTA_DISCOVERY_PREFIX: 'off' }).tasmotaDiscoveryPrefix).toBeUndefined();
    expect(parseConfig({}).shellyTopicPrefixes).toEqual([]);
    expect(parseConfig({ SHELLY_TOPIC_PREFIXES: 'shellies/+, garage/shelly17' }).shellyTopicPrefixes).toEqual(
      ['shellies/+', 'garage/shelly17'],
    );
    expect(parseConfig({ SHELLY_TOPIC_PREFIXES: 'off' }).shellyTopicPrefixes).toBeUndefined();
  });

  it.each([
    [{ PORT: 'abc' }, 'Invalid PORT "abc": expected an integer 1-65535'],
    [{ PORT: '70000' }, 'Invalid PORT "70000": expected an integer 1-65535'],
    [{ PORT: '80.5' }, 'Invalid PORT "80.5": expected an integer 1-65535'],
    [
      { DATABASE_URL: 'not a url' },
      'Invalid DATABASE_URL "not a url": expected a postgres://user@host:port/database URL',
    ],
    [
      { DATABASE_URL: 'mysql://root@localhost/db' },
      'Invalid DATABASE_URL "mysql://root@localhost/db": expected a postgres://user@host:port/database URL',
    ],
    [
      { MQTT_URL: 'http://x' },
      'Invalid MQTT_URL "http://x": expected an mqtt://, mqtts://, ws:// or wss:// URL',
    ],
    [{ SIMULATOR: 'yes' }, 'Invalid SIMULATOR "yes": expected "on" or "off"'],
    [
      { HOUSEHOLD_TIME_ZONE: 'Mars/Olympus' },
      'Invalid HOUSEHOLD_TIME_ZONE "Mars/Olympus": expected an IANA time zone such as "Europe/Berlin"',
    ],
    [
      { HOUSEHOLD_LATITUDE: '95', HOUSEHOLD_LONGITUDE: '13.4' },
      'Invalid HOUSEHOLD_LATITUDE "95": expected a latitude in degrees from -90 to 90',
    ],
    [
      { HOUSEHOLD_LATITUDE: '52.5' },
      'Invalid HOUSEHOLD_LONGITUDE "": expected to be set together with HOUSEHOLD_LATITUDE',
    ],
    [
      { PUSH_SUBJECT: 'hearth@example.com' },
      'Invalid PUSH_SUBJECT "hearth@example.com": expected a mailto: address or https:// URL',
    ],
    [
      { PUSH_ALLOW_PRIVATE_ENDPOINTS: 'yes' },
      'Invalid PUSH_ALLOW_PRIVATE_ENDPOINTS "yes": expected "0" or "1"',
    ],
    [
      { DATABASE_CONNECT_TIMEOUT: 'soon' },
      'Invalid DATABASE_CONNECT_TIMEOUT "soon": expected a number of seconds 0-3600',
    ],
    [{ DEVICEHUB_MAX_DEVICES: '0' }, 'Invalid DEVICEHUB_MAX_DEVICES "0": expected an integer 1-1000000'],
    [{ AUTH_RATE_LIMIT: '-1' }, 'Invalid AUTH_RATE_LIMIT "-1": expected an integer 0-1000000'],
    [
      { LOG_LEVEL: 'loud' },
      'Invalid LOG_LEVEL "loud": expected one of fatal, error, warn, info, debug, trace, silent',
    ],
    [{ PUBLIC_URL: 'ftp://x' }, 'Invalid PUBLIC_URL "ftp://x": expected an http:// or https:// URL'],
    [{ AUTH_SECRET: 'short' }, 'Invalid AUTH_SECRET "short": expected at least 32 characters'],
    [
      { ZIGBEE2MQTT_BASE_TOPIC: 'z2m/#' },
      'Invalid ZIGBEE2MQTT_BASE_TOPIC "z2m/#": expected an MQTT topic without wildcards, spaces or a leading/trailing "/"',
    ],
    [
      { HA_DISCOVERY_PREFIX: 'homeassistant/#' },
      'Invalid HA_DISCOVERY_PREFIX "homeassistant/#": expected an MQTT topic without wildcards, spaces or a leading/trailing "/", or "off"',
    ],
    [
      { TASMOTA_DISCOVERY_PREFIX: 'homeassistant/tasmota' },
      'Invalid TASMOTA_DISCOVERY_PREFIX "homeassistant/tasmota": expected a topic neither under nor above HA_DISCOVERY_PREFIX "homeassistant"',
    ],
    [
      { SHELLY_TOPIC_PREFIXES: 'shellies/#' },
      'Invalid SHELLY_TOPIC_PREFIXES "shellies/#": expected comma-separated MQTT topic prefixes (a level may be "+"; no "#", spaces or leading/trailing "/"), or "off"',
    ],
    [
      { SHELLY_TOPIC_PREFIXES: 'shellies/dev+' },
      'Invalid SHELLY_TOPIC_PREFIXES "shellies/dev+": expected comma-separated MQTT topic prefixes (a level may be "+"; no "#", spaces or leading/trailing "/"), or "off"',
    ],
    [
      { HA_DISCOVERY_PREFIX: 'zigbee2mqtt/homeassistant' },
      'Invalid HA_DISCOVERY_PREFIX "zigbee2mqtt/homeassistant": expected a topic neither under nor above ZIGBEE2MQTT_BASE_TOPIC "zigbee2mqtt"',
    ],
    [
      { SMTP_URL: 'mail.example.com' },
      'Invalid SMTP_URL "mail.example.com": expected an smtp:// or smtps:// URL',
    ],
    [
      { ADMIN_EMAIL: 'admin@example.com' },
      'Invalid ADMIN_PASSWORD "": expected to be set together with ADMIN_EMAIL',
    ],
    [
      { OIDC_ISSUER: 'https://id.example.com' },
      'Invalid OIDC_CLIENT_ID "": expected to be set together with OIDC_ISSUER',
    ],
  ])('refuses %j with one line naming the variable', (env, message) => {
    expect(() => parseConfig(env)).toThrowError(new ConfigError(message));
    try {
      parseConfig(env);
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it("reads the Web Push contact (MAIL_FROM's address by default) and whether private endpoints are allowed", () => {
    expect(parseConfig({}).pushSubject).toBe('mailto:hearth@localhost');
    expect(parseConfig({ MAIL_FROM: 'Home <home@example.com>' }).pushSubject).toBe('mailto:home@example.com');
    expect(parseConfig({ PUSH_SUBJECT: 'https://home.example.com' }).pushSubject).toBe(
      'https://home.example.com',
    );
    expect(parseConfig({}).pushAllowPrivateEndpoints).toBe(false);
    expect(parseConfig({ PUSH_ALLOW_PRIVATE_ENDPOINTS: '1' }).pushAllowPrivateEndpoints).toBe(true);
  });

  it("reads the household's time zone, the server's own by default", () => {
    expect(parseConfig({ HOUSEHOLD_TIME_ZONE: 'Europe/Berlin' }).householdTimeZone).toBe('Europe/Berlin');
    expect(
      parseConfig({ HOUSEHOLD_LATITUDE: '52.52', HOUSEHOLD_LONGITUDE: '-13.4' }).householdLocation,
    ).toEqual({
      latitude: 52.52,
      longitude: -13.4,
    });
    expect(parseConfig({}).householdLocation).toBeNull();
    expect(parseConfig({}).householdTimeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it('accepts a full, valid configuration', () => {
    const config = parseConfig({
      PORT: '3000',
      HOST: '127.0.0.1',
      PUBLIC_URL: 'https://home.example.com/',
      DATABASE_URL: 'postgres://hearth:pw@db:5432/hearth',
      ADMIN_EMAIL: 'Admin@Example.com',
      ADMIN_PASSWORD: 'correct horse battery',
      SMTP_URL: 'smtps://u:p@mail.example.com:465',
      MQTT_URL: 'mqtt://mosquitto:1883',
      MQTT_LISTEN_PORT: '1884',
      SIMULATOR_DEVICES: '2000',
      SIMULATOR_DROPOUTS: 'off',
      DEVICEHUB_MAX_DEVICES: '20000',
      DATABASE_CONNECT_TIMEOUT: '5',
      OIDC_ISSUER: 'https://accounts.google.com',
      OIDC_CLIENT_ID: 'id',
      OIDC_CLIENT_SECRET: 'secret',
      OIDC_PROVIDER: 'google',
      AUTH_RATE_LIMIT: '0',
      TRUST_PROXY: '10.0.0.0/8',
      LOG_LEVEL: 'debug',
    });
    expect(config.publicUrl).toBe('https://home.example.com');
    expect(config.adminEmail).toBe('admin@example.com');
    expect(config.oidc).toEqual({
      issuer: 'https://accounts.google.com',
      clientId: 'id',
      clientSecret: 'secret',
      provider: 'google',
    });
    expect(config.authRateLimit).toBe(0);
    expect(config.mqttListenPort).toBe(1884);
    expect(config.simulatorDevices).toBe(2000);
    expect(config.simulatorDropouts).toBe(false);
    expect(config.devicehubMaxDevices).toBe(20000);
    expect(config.databaseConnectTimeoutMs).toBe(5000);
  });
});
