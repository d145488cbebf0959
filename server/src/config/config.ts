import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** Whether `zone` is an IANA time zone this runtime knows. */
const isTimeZone = (zone: string): boolean => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

/**
 * Every environment variable Hearth reads, parsed once at start (DESIGN.md "Configuration").
 * Nothing else in the server reads process.env.
 */
export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** How long a start waits for an unreachable database, in ms. */
  databaseConnectTimeoutMs: number;
  authSecret: string | undefined;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  mqttUrl: string | undefined;
  /** Plain MQTT port of the embedded broker's listener for Zigbee2MQTT. */
  mqttListenPort: number | undefined;
  /** Where that listener (and the TLS one) binds: loopback unless told otherwise. */
  mqttListenHost: string;
  /** Credentials for it; unset: generated once and kept in DATA_DIR. */
  mqttListenUsername: string | undefined;
  mqttListenPassword: string | undefined;
  /** MQTT over TLS for it (PEM files). */
  mqttListenTls: { port: number; certFile: string; keyFile: string } | undefined;
  zigbee2mqttBaseTopic: string;
  /** HA_DISCOVERY_PREFIX: Home Assistant MQTT discovery's prefix on the bus; undefined when `off`. */
  haDiscoveryPrefix: string | undefined;
  /** TASMOTA_DISCOVERY_PREFIX: where Tasmota's native discovery is; undefined when `off`. */
  tasmotaDiscoveryPrefix: string | undefined;
  /**
   * SHELLY_TOPIC_PREFIXES: where Shelly Gen2+ devices are besides the top level (`+`), each a
   * prefix or a pattern with `+` levels; undefined when `off`.
   */
  shellyTopicPrefixes: string[] | undefined;
  devicehubTopicPrefix: string;
  simulator: boolean;
  simulatorDevices: number;
  /** Simulated devices drop off the network now and then, as real ones do (SIMULATOR_DROPOUTS). */
  simulatorDropouts: boolean;
  devicehubMaxDevices: number;
  oidc: { issuer: string; clientId: string; clientSecret: string | undefined; provider: string } | undefined;
  authRateLimit: number;
  /** SIGNUP_RATE_LIMIT: sign-ups per client address per hour (0: no limit). */
  signupRateLimit: number;
  /** API_TOKEN_RATE_LIMIT: calls per API token per minute (0: no limit). */
  apiTokenRateLimit: number;
  trustProxy: string | undefined;
  /** HISTORY_HEARTBEAT: a repeated value is recorded at most once per this many ms. */
  historyHeartbeatMs: number;
  /** HISTORY_RAW_DAYS, HISTORY_5MIN_DAYS, HISTORY_HOURLY_DAYS (undefined: forever). */
  historyRetention: { rawDays: number; fiveMinuteDays: number; hourlyDays: number | undefined };
  /** ACTIVITY_RETENTION_DAYS: activity log entries older than this are pruned. */
  activityRetentionDays: number;
  /** HOUSEHOLD_TIME_ZONE: guest passes' weekly schedules are read in it (IANA name). */
  householdTimeZone: string;
  /** HOUSEHOLD_LATITUDE and HOUSEHOLD_LONGITUDE: where sunrise and sunset are computed (both, or none). */
  householdLocation: { latitude: number; longitude: number } | null;
  /** PUSH_SUBJECT: the contact push services see in Hearth's VAPID signature (mailto: or https:). */
  pushSubject: string;
  /** PUSH_ALLOW_PRIVATE_ENDPOINTS: Web Push endpoints may be private addresses (a test push service). */
  pushAllowPrivateEndpoints: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

/** The address of a sender such as "Hearth <hearth@example.com>". */
const mailAddress = (from: string) => /<([^>]+)>/.exec(from)?.[1] ?? from.trim();

const integer = (min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).describe(`an integer ${min}-${max}`);

const urlWithProtocols = (protocols: string[], expected: string) =>
  z
    .string()
    .refine((value) => {
      try {
        const url = new URL(value);
        return protocols.includes(url.protocol) && url.hostname !== '';
      } catch {
        return false;
      }
    })
    .describe(expected);

const topic = z
  .string()
  .regex(/^[^#+\s/][^#+\s]*[^#+\s/]$|^[^#+\s/]$/)
  .describe('an MQTT topic without wildcards, spaces or a leading/trailing "/"');

const schemas = {
  PORT: integer(1, 65535),
  HOST: z.string().min(1).describe('a host name or IP address'),
  PUBLIC_URL: urlWithProtocols(['http:', 'https:'], 'an http:// or https:// URL'),
  DATA_DIR: z.string().min(1).describe('a directory path'),
  DATABASE_URL: urlWithProtocols(['postgres:', 'postgresql:'], 'a postgres://user@host:port/database URL'),
  DATABASE_CONNECT_TIMEOUT: integer(0, 3600).describe('a number of seconds 0-3600'),
  AUTH_SECRET: z.string().min(32).describe('at least 32 characters'),
  ADMIN_EMAIL: z.email().describe('an e-mail address'),
  ADMIN_PASSWORD: z.string().min(8).max(128).describe('a password of 8-128 characters'),
  SMTP_URL: urlWithProtocols(['smtp:', 'smtps:'], 'an smtp:// or smtps:// URL'),
  MAIL_FROM: z.string().min(3).describe('a sender such as "Hearth <hearth@example.com>"'),
  MQTT_URL: urlWithProtocols(
    ['mqtt:', 'mqtts:', 'tcp:', 'ws:', 'wss:'],
    'an mqtt://, mqtts://, ws:// or wss:// URL',
  ),
  MQTT_LISTEN_PORT: integer(1, 65535),
  MQTT_LISTEN_HOST: z.string().min(1).describe('a host name or IP address'),
  MQTT_LISTEN_USERNAME: z
    .string()
    .regex(/^[^\s:]{1,64}$/)
    .describe('a user name of 1-64 characters without spaces or ":"'),
  MQTT_LISTEN_PASSWORD: z.string().min(12).max(256).describe('a password of 12-256 characters'),
  MQTT_LISTEN_TLS_CERT: z.string().min(1).describe('a readable PEM certificate file'),
  MQTT_LISTEN_TLS_KEY: z.string().min(1).describe('a readable PEM private key file'),
  MQTT_LISTEN_TLS_PORT: integer(1, 65535),
  ZIGBEE2MQTT_BASE_TOPIC: topic,
  HA_DISCOVERY_PREFIX: topic.describe(
    'an MQTT topic without wildcards, spaces or a leading/trailing "/", or "off"',
  ),
  TASMOTA_DISCOVERY_PREFIX: topic.describe(
    'an MQTT topic without wildcards, spaces or a leading/trailing "/", or "off"',
  ),
  SHELLY_TOPIC_PREFIXES: z
    .string()
    .regex(/^(off|[^#\s,/][^#\s,]*(?<!\/)(,\s*[^#\s,/][^#\s,]*(?<!\/))*)$/)
    .describe(
      'comma-separated MQTT topic prefixes (a level may be "+"; no "#", spaces or leading/trailing "/"), or "off"',
    ),
  DEVICEHUB_TOPIC_PREFIX: topic,
  SIMULATOR: z.enum(['on', 'off']).describe('"on" or "off"'),
  SIMULATOR_DEVICES: integer(1, 100000),
  SIMULATOR_DROPOUTS: z.enum(['on', 'off']).describe('"on" or "off"'),
  DEVICEHUB_MAX_DEVICES: integer(1, 1000000),
  OIDC_ISSUER: urlWithProtocols(['http:', 'https:'], 'an http:// or https:// issuer URL'),
  OIDC_CLIENT_ID: z.string().min(1).describe('a client id'),
  OIDC_CLIENT_SECRET: z.string().min(1).describe('a client secret'),
  OIDC_PROVIDER: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]{0,31}$/)
    .describe('a short lower-case name such as "google" (letters, digits, "-", "_")'),
  AUTH_RATE_LIMIT: integer(0, 1000000),
  SIGNUP_RATE_LIMIT: integer(0, 1000000),
  API_TOKEN_RATE_LIMIT: integer(0, 1000000),
  TRUST_PROXY: z
    .string()
    .regex(/^[0-9a-fA-F.:/,\s]+$|^(true|loopback|linklocal|uniquelocal)$/)
    .describe('an IP address or CIDR (comma-separated), "loopback" or "true"'),
  HISTORY_HEARTBEAT: integer(1, 1440).describe('a number of minutes 1-1440'),
  HISTORY_RAW_DAYS: integer(1, 3650).describe('a number of days 1-3650'),
  HISTORY_5MIN_DAYS: integer(1, 36500).describe('a number of days 1-36500'),
  HISTORY_HOURLY_DAYS: integer(1, 365000).describe('a number of days 1-365000'),
  ACTIVITY_RETENTION_DAYS: integer(1, 36500).describe('a number of days 1-36500'),
  HOUSEHOLD_TIME_ZONE: z.string().refine(isTimeZone).describe('an IANA time zone such as "Europe/Berlin"'),
  HOUSEHOLD_LATITUDE: z.coerce.number().min(-90).max(90).describe('a latitude in degrees from -90 to 90'),
  HOUSEHOLD_LONGITUDE: z.coerce
    .number()
    .min(-180)
    .max(180)
    .describe('a longitude in degrees from -180 to 180'),
  PUSH_SUBJECT: z
    .string()
    .refine((value) => /^mailto:[^\s@]+@[^\s@]+$/.test(value) || /^https:\/\/[^\s/]+/.test(value))
    .describe('a mailto: address or https:// URL'),
  PUSH_ALLOW_PRIVATE_ENDPOINTS: z.enum(['0', '1']).describe('"0" or "1"'),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .describe('one of fatal, error, warn, info, debug, trace, silent'),
} satisfies Record<string, z.ZodType>;

type Name = keyof typeof schemas;
type Parsed = { [K in Name]: z.output<(typeof schemas)[K]> | undefined };

/** Parses and validates the environment; throws ConfigError with one line naming the variable. */
export function parseConfig(env: Env, cwd = process.cwd()): Config {
  const values = {} as Parsed;
  for (const name of Object.keys(schemas) as Name[]) {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') continue;
    const schema = schemas[name];
    const result = schema.safeParse(raw.trim());
    if (!result.success) {
      throw new ConfigError(`Invalid ${name} "${raw}": expected ${schema.description}`);
    }
    (values as Record<string, unknown>)[name] = result.data;
  }

  const oidcVars = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_PROVIDER'] as const;
  const oidcSet = oidcVars.filter((name) => values[name] !== undefined);
  if (oidcSet.length > 0 && oidcSet.length < oidcVars.length) {
    const missing = oidcVars.find((name) => values[name] === undefined);
    throw new ConfigError(`Invalid ${missing} "": expected to be set together with ${oidcSet.join(', ')}`);
  }
  if ((values.ADMIN_EMAIL === undefined) !== (values.ADMIN_PASSWORD === undefined)) {
    const missing = values.ADMIN_EMAIL === undefined ? 'ADMIN_EMAIL' : 'ADMIN_PASSWORD';
    throw new ConfigError(
      `Invalid ${missing} "": expected to be set together with ${missing === 'ADMIN_EMAIL' ? 'ADMIN_PASSWORD' : 'ADMIN_EMAIL'}`,
    );
  }

  for (const [a, b] of [
    ['MQTT_LISTEN_USERNAME', 'MQTT_LISTEN_PASSWORD'],
    ['MQTT_LISTEN_TLS_CERT', 'MQTT_LISTEN_TLS_KEY'],
    ['HOUSEHOLD_LATITUDE', 'HOUSEHOLD_LONGITUDE'],
  ] as const) {
    if ((values[a] === undefined) !== (values[b] === undefined)) {
      const [missing, set] = values[a] === undefined ? [a, b] : [b, a];
      throw new ConfigError(`Invalid ${missing} "": expected to be set together with ${set}`);
    }
  }
  if (values.MQTT_LISTEN_TLS_PORT !== undefined && values.MQTT_LISTEN_TLS_CERT === undefined) {
    throw new ConfigError(
      'Invalid MQTT_LISTEN_TLS_CERT "": expected to be set together with MQTT_LISTEN_TLS_PORT',
    );
  }
  const readable = (name: 'MQTT_LISTEN_TLS_CERT' | 'MQTT_LISTEN_TLS_KEY') => {
    const file = path.resolve(cwd, values[name] as string);
    try {
      fs.accessSync(file, fs.constants.R_OK);
    } catch {
      throw new ConfigError(`Invalid ${name} "${values[name]}": expected ${schemas[name].description}`);
    }
    return file;
  };

  // Overlapping subscriptions would hand one message to two sources (a broker delivers it per match).
  const base = values.ZIGBEE2MQTT_BASE_TOPIC ?? 'zigbee2mqtt';
  const discovery = values.HA_DISCOVERY_PREFIX ?? 'homeassistant';
  if (
    discovery !== 'off' &&
    (discovery === base || discovery.startsWith(`${base}/`) || base.startsWith(`${discovery}/`))
  ) {
    throw new ConfigError(
      `Invalid HA_DISCOVERY_PREFIX "${discovery}": expected a topic neither under nor above ZIGBEE2MQTT_BASE_TOPIC "${base}"`,
    );
  }

  const tasmota = values.TASMOTA_DISCOVERY_PREFIX ?? 'tasmota/discovery';
  for (const [name, other] of [
    ['ZIGBEE2MQTT_BASE_TOPIC', base],
    ['HA_DISCOVERY_PREFIX', discovery],
  ] as const) {
    if (
      tasmota !== 'off' &&
      other !== 'off' &&
      (tasmota === other || tasmota.startsWith(`${other}/`) || other.startsWith(`${tasmota}/`))
    ) {
      throw new ConfigError(
        `Invalid TASMOTA_DISCOVERY_PREFIX "${tasmota}": expected a topic neither under nor above ${name} "${other}"`,
      );
    }
  }

  const shelly = values.SHELLY_TOPIC_PREFIXES;
  if (
    shelly &&
    shelly !== 'off' &&
    shelly.split(/[,/]/).some((level) => level.includes('+') && level.trim() !== '+')
  ) {
    throw new ConfigError(
      `Invalid SHELLY_TOPIC_PREFIXES "${shelly}": expected ${schemas.SHELLY_TOPIC_PREFIXES.description}`,
    );
  }

  const port = values.PORT ?? 8080;
  const publicUrl = (values.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  return {
    port,
    host: values.HOST ?? '0.0.0.0',
    publicUrl,
    dataDir: path.resolve(cwd, values.DATA_DIR ?? './data'),
    databaseUrl: values.DATABASE_URL,
    databaseConnectTimeoutMs: (values.DATABASE_CONNECT_TIMEOUT ?? 60) * 1000,
    authSecret: values.AUTH_SECRET,
    adminEmail: values.ADMIN_EMAIL?.toLowerCase(),
    adminPassword: values.ADMIN_PASSWORD,
    smtpUrl: values.SMTP_URL,
    mailFrom: values.MAIL_FROM ?? 'Hearth <hearth@localhost>',
    mqttUrl: values.MQTT_URL,
    mqttListenPort: values.MQTT_LISTEN_PORT,
    mqttListenHost: values.MQTT_LISTEN_HOST ?? '127.0.0.1',
    mqttListenUsername: values.MQTT_LISTEN_USERNAME,
    mqttListenPassword: values.MQTT_LISTEN_PASSWORD,
    mqttListenTls: values.MQTT_LISTEN_TLS_CERT
      ? {
          port: values.MQTT_LISTEN_TLS_PORT ?? 8883,
          certFile: readable('MQTT_LISTEN_TLS_CERT'),
          keyFile: readable('MQTT_LISTEN_TLS_KEY'),
        }
      : undefined,
    zigbee2mqttBaseTopic: values.ZIGBEE2MQTT_BASE_TOPIC ?? 'zigbee2mqtt',
    haDiscoveryPrefix:
      values.HA_DISCOVERY_PREFIX === 'off' ? undefined : (values.HA_DISCOVERY_PREFIX ?? 'homeassistant'),
    tasmotaDiscoveryPrefix: tasmota === 'off' ? undefined : tasmota,
    shellyTopicPrefixes:
      values.SHELLY_TOPIC_PREFIXES === 'off'
        ? undefined
        : (values.SHELLY_TOPIC_PREFIXES ?? '')
            .split(',')
            .map((prefix) => prefix.trim())
            .filter((prefix) => prefix !== ''),
    devicehubTopicPrefix: values.DEVICEHUB_TOPIC_PREFIX ?? 'hearth',
    simulator: (values.SIMULATOR ?? (values.MQTT_URL ? 'off' : 'on')) === 'on',
    simulatorDevices: values.SIMULATOR_DEVICES ?? 24,
    simulatorDropouts: (values.SIMULATOR_DROPOUTS ?? 'on') === 'on',
    devicehubMaxDevices: values.DEVICEHUB_MAX_DEVICES ?? 5000,
    oidc:
      values.OIDC_ISSUER && values.OIDC_CLIENT_ID && values.OIDC_PROVIDER
        ? {
            issuer: values.OIDC_ISSUER,
            clientId: values.OIDC_CLIENT_ID,
            clientSecret: values.OIDC_CLIENT_SECRET,
            provider: values.OIDC_PROVIDER,
          }
        : undefined,
    authRateLimit: values.AUTH_RATE_LIMIT ?? 60,
    signupRateLimit: values.SIGNUP_RATE_LIMIT ?? 5,
    apiTokenRateLimit: values.API_TOKEN_RATE_LIMIT ?? 600,
    trustProxy: values.TRUST_PROXY,
    historyHeartbeatMs: (values.HISTORY_HEARTBEAT ?? 10) * 60_000,
    historyRetention: {
      rawDays: values.HISTORY_RAW_DAYS ?? 10,
      fiveMinuteDays: values.HISTORY_5MIN_DAYS ?? 90,
      hourlyDays: values.HISTORY_HOURLY_DAYS,
    },
    activityRetentionDays: values.ACTIVITY_RETENTION_DAYS ?? 90,
    // The server's own zone (TZ, else the system's) unless told otherwise.
    householdTimeZone: values.HOUSEHOLD_TIME_ZONE ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
    householdLocation:
      values.HOUSEHOLD_LATITUDE !== undefined && values.HOUSEHOLD_LONGITUDE !== undefined
        ? { latitude: values.HOUSEHOLD_LATITUDE, longitude: values.HOUSEHOLD_LONGITUDE }
        : null,
    pushSubject:
      values.PUSH_SUBJECT ?? `mailto:${mailAddress(values.MAIL_FROM ?? 'Hearth <hearth@localhost>')}`,
    pushAllowPrivateEndpoints: values.PUSH_ALLOW_PRIVATE_ENDPOINTS === '1',
    logLevel: values.LOG_LEVEL ?? 'info',
  };
}
