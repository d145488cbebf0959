import fs from 'node:fs';
import path from 'node:path';
import type { Capability } from '@hearth/contracts';
import { describe, expect, it } from 'vitest';
import { compileTopicFilter } from '../../../bus/bus.js';
import { isObject, type JsonObject } from '../../../shared/json.js';
import { availabilityMessage, availabilityOf, combined } from './availability.js';
import { corpusFile } from './corpus.js';
import { COMPONENTS, type EntityConfig, parseConfig } from './discovery.js';
import { buildCommand, capabilityOf, decode, decodeAttributes, stateTopics } from './entities.js';
import { Payload } from './payload.js';
import { TemplateEngine } from './templates.js';

// Acceptance 2 of issue 35 for Home Assistant discovery: the shared corpus of real configs, state
// messages and command payloads (../shared/sources/ha-discovery; CI has it). Every config the corpus
// marks valid must be accepted and mapped, every invalid one refused; every recorded state must
// decode to the recorded value; every recorded command payload must come from the matching control.
// Prints the shares and the misses; fails below 95 % each.

interface CorpusState {
  topic: string | null;
  payload?: unknown;
  payload_hex?: string;
  expect?: Record<string, unknown>;
}
interface CorpusCommand {
  intent: string;
  topic: string | null;
  payload: string | null;
}
interface CorpusRecord {
  topic: string;
  payload: unknown;
  payload_raw?: string;
  expect_valid?: boolean;
  states?: CorpusState[];
  commands?: CorpusCommand[];
}

const folder = corpusFile('ha-discovery');
const templates = new TemplateEngine();

/** The discovery prefix of a record's topic: what comes before `<component>/…/config`. */
function prefixOf(topic: string): string {
  const levels = topic.split('/');
  for (let i = levels.length - 4; i >= 0; i--) {
    const component = levels[i + 1] as string;
    if (component === 'device' || (COMPONENTS as readonly string[]).includes(component)) {
      const rest = levels.length - (i + 2) - 1;
      if (rest === 1 || rest === 2) return levels.slice(0, i + 1).join('/');
    }
  }
  return levels[0] as string;
}

/** A runtime of one entity, as the adapter keeps it: its value and availability. */
class Entity {
  value: unknown;
  heard = new Map<string, boolean>();
  latest: boolean | undefined;
  attributes: JsonObject | undefined;
  readonly availability;
  readonly capability: Capability;
  constructor(readonly config: EntityConfig) {
    this.availability = availabilityOf(config.config);
    this.capability = capabilityOf(config, 'Entity');
  }

  get available() {
    return this.availability ? combined(this.availability, this.heard, this.latest) : true;
  }

  receive(topic: string, raw: Buffer) {
    const message = new Payload(raw);
    const matches = (configured: unknown) =>
      typeof configured === 'string' && (configured === topic || compileTopicFilter(configured)(topic));
    for (const entry of this.availability?.entries ?? []) {
      if (!matches(entry.topic)) continue;
      const said = availabilityMessage(entry, message, this.config.config.encoding, templates);
      if (said.available !== undefined) {
        this.heard.set(entry.topic, said.available);
        this.latest = said.available;
      }
    }
    if (matches(this.config.config.json_attributes_topic)) {
      const { attributes } = decodeAttributes(this.config, message, templates);
      if (attributes) this.attributes = attributes;
    }
    let changed = false;
    for (const [key, configured] of stateTopics(this.config)) {
      if (!matches(configured)) continue;
      const decoded = decode(this.config, key, message, this.value, templates);
      if (decoded.changed) changed = true;
      this.value = decoded.value;
    }
    return changed;
  }
}

const lower = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value);
/** A decoded part as Home Assistant would state it: booleans as on/off. */
const asHa = (value: unknown) => (value === true ? 'on' : value === false ? 'off' : value);
const sameNumber = (a: unknown, b: unknown) =>
  (typeof a === 'number' || typeof a === 'string') &&
  (typeof b === 'number' || typeof b === 'string') &&
  a !== '' &&
  b !== '' &&
  Math.abs(Number(a) - Number(b)) < 1e-6;

/** Whether the entity shows what the corpus says after a message (`before`: its value before it). */
function shows(entity: Entity, key: string, wanted: unknown, before: unknown, changed: boolean): boolean {
  const value = entity.value;
  const part = (name: string) => (isObject(value) ? value[name] : undefined);
  if (typeof wanted === 'string' && wanted.startsWith('unchanged'))
    return !changed && JSON.stringify(value) === JSON.stringify(before);
  if (typeof wanted === 'string' && wanted.startsWith('ignored')) return !changed;
  if (key === 'note') return true;
  if (key === 'available') return entity.available === wanted;
  if (key === 'attributes') return entity.attributes !== undefined;
  if (['latitude', 'longitude', 'gps_accuracy'].includes(key)) return entity.attributes?.[key] === wanted;
  const actual =
    key === 'state' || key === 'value' || key === 'option' || key === 'event' || key === 'trigger'
      ? isObject(value)
        ? part('state')
        : value
      : key === 'hold/preset'
        ? part('preset_mode')
        : key === 'hs'
          ? isObject(part('color'))
            ? [(part('color') as JsonObject).hue, (part('color') as JsonObject).saturation]
            : undefined
          : key === 'rgb'
            ? isObject(part('color'))
              ? [
                  (part('color') as JsonObject).r,
                  (part('color') as JsonObject).g,
                  (part('color') as JsonObject).b,
                ]
              : undefined
            : part(key);
  if (wanted === 'unknown') return actual === undefined || actual === null;
  if (key === 'trigger') return actual === String(wanted).replace('/', '_');
  if (Array.isArray(wanted)) return JSON.stringify(actual) === JSON.stringify(wanted);
  if (typeof wanted === 'number') return sameNumber(actual, wanted);
  if (wanted === null) return actual === null;
  return lower(asHa(actual)) === lower(wanted) || sameNumber(actual, wanted);
}

/** The hub command value a corpus intent means, for this entity. */
function intended(entity: Entity, intent: string): unknown {
  const c = entity.config.config;
  const component = entity.config.component;
  const features = new Set((entity.capability.features ?? []).map((f) => f.property));
  const composite = entity.capability.kind === 'composite';
  const power = (on: boolean) => (composite ? { [features.has('state') ? 'state' : 'power']: on } : on);
  if (intent === 'on' || intent === 'power on') return power(true);
  if (intent === 'off' || intent === 'power off') return power(false);
  if (['open', 'close', 'stop', 'lock', 'unlock', 'start'].includes(intent)) return { command: intent };
  if (intent === 'press') return 'press';
  if (intent === 'disarm' || intent.startsWith('arm ')) {
    const command = intent === 'disarm' ? 'disarm' : `arm_${intent.slice(4)}`;
    return c.code !== undefined ? { command, code: String(c.code) } : { command };
  }
  const scale = typeof c.brightness_scale === 'number' ? c.brightness_scale : 255;
  if (intent === 'turn on blue at full brightness')
    return { state: true, brightness: scale, color: '#0000FF' };
  const patterns: [RegExp, (m: string[]) => unknown][] = [
    [/^away_mode (ON|OFF)$/, (m) => ({ away_mode: m[1] === 'ON' })],
    [/^preset (\S+)$/, (m) => ({ preset_mode: m[1] })],
    [/^mode (\S+)/, (m) => ({ mode: m[1] })],
    [
      /^target(?: temperature)? ([\d.]+)$/,
      (m) =>
        component === 'humidifier' ? { target_humidity: Number(m[1]) } : { target_temperature: Number(m[1]) },
    ],
    [/^percentage (\d+)$/, (m) => ({ percentage: Number(m[1]) })],
    [/^effect (\S+)$/, (m) => ({ effect: m[1] })],
    [/^hs (\d+),(\d+)/, (m) => ({ color: { hue: Number(m[1]), saturation: Number(m[2]) }, brightness: 255 })],
    [/^brightness (\d+)%$/, (m) => ({ brightness: Math.round((scale * Number(m[1])) / 100) })],
    [/^brightness (\d+)$/, (m) => ({ brightness: Number(m[1]) })],
    [/^rgb (\d+),(\d+),(\d+)$/, (m) => ({ color: { r: Number(m[1]), g: Number(m[2]), b: Number(m[3]) } })],
    [/^set position (\d+)$/, (m) => ({ position: Number(m[1]) })],
    [/^fan speed (\S+)$/, (m) => ({ fan_speed: m[1] })],
    [/^set ([\d.]+)$/, (m) => Number(m[1])],
    [/^(?:set|select) "?([^"]+)"?/, (m) => m[1]],
  ];
  for (const [pattern, value] of patterns) {
    const m = pattern.exec(intent);
    if (m) return value(m);
  }
  throw new Error(`intent not understood: ${intent}`);
}

/** The same text, or the same JSON (Home Assistant's key order may differ from the recording tool's). */
const samePayload = (a: string, b: string) => {
  if (a === b) return true;
  try {
    expect(JSON.parse(a)).toEqual(JSON.parse(b));
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(!folder)('Home Assistant discovery against the shared corpus (acceptance 2)', () => {
  const records = folder
    ? fs
        .readdirSync(folder)
        .filter((name) => name.endsWith('.json') && !name.startsWith('_'))
        .map((name) => ({
          name,
          record: JSON.parse(fs.readFileSync(path.join(folder, name), 'utf8')) as CorpusRecord,
        }))
    : [];
  const configs = { ok: 0, total: 0, misses: [] as string[] };
  const states = { ok: 0, total: 0, misses: [] as string[] };
  const commands = { ok: 0, total: 0, misses: [] as string[] };

  for (const { name, record } of records) {
    const raw = record.payload_raw ?? JSON.stringify(record.payload);
    const parsed = parseConfig(prefixOf(record.topic), record.topic, Buffer.from(raw));
    const valid = record.expect_valid !== false;
    configs.total++;
    const entities = parsed.kind === 'entities' ? parsed.entities.map((e) => new Entity(e)) : [];
    if (!valid) {
      if (parsed.kind === 'rejected' || (parsed.kind === 'entities' && parsed.problems.length > 0))
        configs.ok++;
      else configs.misses.push(`${name}: accepted, but the corpus marks it invalid`);
      continue;
    }
    if (parsed.kind === 'marker') configs.ok++;
    else if (parsed.kind !== 'entities')
      configs.misses.push(`${name}: ${parsed.kind === 'rejected' ? parsed.reason : parsed.kind}`);
    else if (parsed.problems.length > 0)
      configs.misses.push(`${name}: ${parsed.problems.map((p) => p.reason).join('; ')}`);
    else if (entities.length === 0 && parsed.removed.length === 0) configs.misses.push(`${name}: no entity`);
    else if (
      entities.some((e) => e.capability.kind === 'composite' && (e.capability.features ?? []).length === 0)
    )
      configs.misses.push(`${name}: an entity without any part`);
    else configs.ok++;

    for (const [index, state] of (record.states ?? []).entries()) {
      states.total++;
      const label = `${name} state #${index + 1}`;
      if (entities.length === 0) {
        states.misses.push(`${label}: no entity`);
        continue;
      }
      const payload = state.payload_hex
        ? Buffer.from(state.payload_hex, 'hex')
        : Buffer.from(
            typeof state.payload === 'string' ? state.payload : JSON.stringify(state.payload ?? ''),
          );
      const results = entities.map((entity) => {
        const before = entity.value;
        const changed = state.topic === null ? false : entity.receive(state.topic, payload);
        return { entity, before, changed };
      });
      if (!state.expect) {
        // No recorded expectation (rtl_433): the value the source published, as the entity reads it.
        const read = results.some(
          ({ entity, changed }) => changed && entity.value !== undefined && entity.value !== null,
        );
        if (read) states.ok++;
        else states.misses.push(`${label}: nothing decoded from ${JSON.stringify(state.payload)}`);
        continue;
      }
      const wrong: string[] = [];
      for (const [key, wanted] of Object.entries(state.expect)) {
        // A device config's expectations name their component by its cmps key.
        const own = results.find(({ entity }) => entity.config.objectId === key);
        const ok = own
          ? shows(own.entity, 'value', wanted, own.before, own.changed)
          : results.some(({ entity, before, changed }) => shows(entity, key, wanted, before, changed));
        if (!ok)
          wrong.push(
            `${key}: wanted ${JSON.stringify(wanted)}, got ${JSON.stringify(results.map((r) => r.entity.value))}`,
          );
      }
      if (wrong.length === 0) states.ok++;
      else states.misses.push(`${label}: ${wrong.join('; ')}`);
    }

    for (const command of record.commands ?? []) {
      commands.total++;
      const label = `${name} "${command.intent}"`;
      const entity = entities[0];
      if (!entity) {
        commands.misses.push(`${label}: no entity`);
        continue;
      }
      try {
        const value = intended(entity, command.intent);
        let built: ReturnType<typeof buildCommand> | undefined;
        try {
          built = buildCommand(entity.config, entity.capability, value, entity.value, templates);
        } catch (error) {
          if (command.topic === null) {
            commands.ok++;
            continue;
          }
          throw error;
        }
        if (command.topic === null) {
          commands.misses.push(
            `${label}: published ${JSON.stringify(built.publications)}, the corpus expects nothing`,
          );
          continue;
        }
        const hit = built.publications.some(
          (p) => p.topic === command.topic && samePayload(p.payload, command.payload ?? ''),
        );
        if (hit) commands.ok++;
        else
          commands.misses.push(
            `${label}: wanted ${command.topic} ${JSON.stringify(command.payload)}, got ${JSON.stringify(built.publications.map((p) => `${p.topic} ${p.payload}`))}`,
          );
      } catch (error) {
        commands.misses.push(`${label}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  const share = (s: { ok: number; total: number }) => (s.total === 0 ? 1 : s.ok / s.total);
  const line = (title: string, s: { ok: number; total: number; misses: string[] }) =>
    `${title}: ${s.ok}/${s.total} (${(share(s) * 100).toFixed(1)} %)${s.misses.length ? `\n  misses:\n    ${s.misses.join('\n    ')}` : ''}`;

  it('accepts and maps the valid configs, refuses the invalid ones, decodes the states and produces the commands (each ≥ 95 %)', () => {
    console.log(
      [
        'Home Assistant discovery corpus:',
        line('configs', configs),
        line('states', states),
        line('commands', commands),
      ].join('\n'),
    );
    expect(configs.total).toBeGreaterThan(0);
    expect(share(configs)).toBeGreaterThanOrEqual(0.95);
    expect(share(states)).toBeGreaterThanOrEqual(0.95);
    expect(share(commands)).toBeGreaterThanOrEqual(0.95);
  });
});
