import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isObject, type JsonObject } from '../../../shared/json.js';
import { corpusFile } from '../homeassistant/corpus.js';
import { requestedValues } from '../tasmota/request.js';
import { actionOf, callsFor, capabilitiesOf, componentOf, modelOf, valuesOf } from './components.js';
import { parseNotification, parseReply } from './frames.js';

// Acceptance 2 of issue 35 for Shelly Gen2+: the shared corpus of real frames, statuses and RPC
// requests (../shared/sources/shelly; CI has it). Every frame Hearth reads must be read; every
// status of a component Hearth maps must decode to the values the device reported (each field of
// docs/devicehub.md#shelly-mapping); every RPC request a Hearth control makes must be the one
// recorded. Records Hearth has no part in (other clients' scripts, the plain-text `command`
// topic, components it does not show such as `sys` or `cloud`) are listed apart, not counted.
// Prints the shares and the misses; fails below 95 % each.

interface CorpusRecord {
  topic: string | null;
  payload: unknown;
  payload_raw?: string;
  kind: string;
  expect?: Record<string, unknown>;
}

const folder = corpusFile('shelly');

/** Component types Hearth does not show, by design: the device's own plumbing. */
const PLUMBING = new Set([
  'ht_ui',
  'ble',
  'cloud',
  'mqtt',
  'sys',
  'eth',
  'ws',
  'bthome',
  'knx',
  'matter',
  'modbus',
  'zigbee',
  'dali',
  'media',
  'plugs_ui',
  'plusrgbwpm',
  'script',
]);

/** Each field Hearth reads of a component (single instance, id 0): [path in the status, property]. */
const FIELDS: Record<string, [string, string][]> = {
  switch: [
    ['output', 'state'],
    ['apower', 'power'],
    ['voltage', 'voltage'],
    ['current', 'current'],
    ['aenergy.total', 'energy'],
    ['temperature.tC', 'device_temperature'],
  ],
  cover: [
    ['state', 'cover.state'],
    ['current_pos', 'cover.position'],
    ['apower', 'power'],
    ['voltage', 'voltage'],
    ['aenergy.total', 'energy'],
  ],
  light: [
    ['output', 'light.state'],
    ['brightness', 'light.brightness'],
    ['apower', 'power'],
  ],
  rgb: [
    ['output', 'rgb.state'],
    ['brightness', 'rgb.brightness'],
    ['rgb', 'rgb.color'],
    ['apower', 'power'],
  ],
  cct: [
    ['output', 'cct.state'],
    ['brightness', 'cct.brightness'],
    ['ct', 'cct.color_temp'],
    ['apower', 'power'],
  ],
  input: [
    ['state', 'input'],
    ['counts.total', 'input_count'],
    ['freq', 'input_frequency'],
  ],
  temperature: [['tC', 'temperature']],
  humidity: [['rh', 'humidity']],
  illuminance: [['lux', 'illuminance']],
  devicepower: [
    ['battery.percent', 'battery'],
    ['battery.V', 'battery_voltage'],
    ['external.present', 'external_power'],
  ],
  em: [
    ['a_act_power', 'power_a'],
    ['b_voltage', 'voltage_b'],
    ['c_act_power', 'power_c'],
    ['c_active_power', 'power_c'],
    ['total_act_power', 'power'],
    ['total_current', 'current'],
  ],
  emdata: [
    ['a_total_act_energy', 'energy_a'],
    ['total_act', 'energy'],
    ['total_act_ret', 'energy_returned'],
  ],
  em1: [
    ['act_power', 'power'],
    ['voltage', 'voltage'],
    ['current', 'current'],
    ['aprt_power', 'apparent_power'],
  ],
  em1data: [
    ['total_act_energy', 'energy'],
    ['total_act_ret_energy', 'energy_returned'],
  ],
  pm1: [
    ['apower', 'power'],
    ['voltage', 'voltage'],
    ['aenergy.total', 'energy'],
    ['ret_aenergy.total', 'energy_returned'],
  ],
  smoke: [
    ['alarm', 'smoke'],
    ['mute', 'smoke_muted'],
  ],
  flood: [
    ['alarm', 'water_leak'],
    ['mute', 'water_leak_muted'],
  ],
  voltmeter: [['voltage', 'voltage']],
  thermostat: [
    ['target_C', 'climate.target_temperature'],
    ['current_C', 'climate.current_temperature'],
  ],
  wifi: [['rssi', 'wifi_signal']],
};

/** Each RPC request record, and the control (on a device with that component) that sends it. */
const COMMANDS: Record<string, { status: JsonObject; request: object } | { poll: true }> = {
  'rpc_request__CCT.Set__ct__iobroker': {
    status: { 'cct:0': { id: 0, output: false, brightness: 50, ct: 4600 } },
    request: { state: { cct: { color_temp: 4000 } } },
  },
  'rpc_request__Cover.GoToPosition__ha_issue': {
    status: { 'cover:0': { id: 0, state: 'stopped', pos_control: true, current_pos: 10 } },
    request: { state: { cover: { position: 50 } } },
  },
  'rpc_request__Cover.GoToPosition__pos__iobroker': {
    status: { 'cover:0': { id: 0, state: 'stopped', pos_control: true, current_pos: 10 } },
    request: { state: { cover: { position: 35 } } },
  },
  'rpc_request__Cover.Open____iobroker': {
    status: { 'cover:0': { id: 0, state: 'stopped', pos_control: true } },
    request: { state: { cover: { command: 'open' } } },
  },
  'rpc_request__Cover.Stop____iobroker': {
    status: { 'cover:0': { id: 0, state: 'stopped', pos_control: true } },
    request: { state: { cover: { command: 'stop' } } },
  },
  'rpc_request__Light.Set__brightness__iobroker': {
    status: { 'light:0': { id: 0, output: false, brightness: 0 } },
    request: { state: { light: { brightness: 40 } } },
  },
  'rpc_request__Light.Set__on__iobroker': {
    status: { 'light:0': { id: 0, output: false, brightness: 0 } },
    request: { state: { on: true } },
  },
  'rpc_request__Light.Set__transition_duration__iobroker': {
    status: { 'light:0': { id: 0, output: false, brightness: 0 } },
    request: { state: { light: { transition: 2 } } },
  },
  'rpc_request__RGB.Set__rgb__iobroker': {
    status: { 'rgb:0': { id: 0, output: false, brightness: 50, rgb: [0, 0, 0] } },
    request: { state: { rgb: { color: '#FF7800' } } },
  },
  'rpc_request__Switch.Set__docs_http_post_frame': {
    status: { 'switch:0': { id: 0, output: false } },
    request: { state: { on: true } },
  },
  'rpc_request__Switch.Set__on__iobroker': {
    status: { 'switch:0': { id: 0, output: false } },
    request: { input: { id: 'state', value: true } },
  },
  // Hearth asks a device it finds (and one it wants the state of) with Shelly.GetStatus.
  'rpc_request__Shelly.GetStatus__iobroker_on_connect': { poll: true },
};

const at = (node: unknown, pathText: string): unknown =>
  pathText.split('.').reduce<unknown>((value, key) => (isObject(value) ? value[key] : undefined), node);

describe.skipIf(!folder)('Shelly against the shared corpus (acceptance 2)', () => {
  const records = new Map<string, CorpusRecord>(
    folder
      ? fs
          .readdirSync(folder)
          .filter((name) => name.endsWith('.json'))
          .map((name) => [
            name.replace(/\.json$/, ''),
            JSON.parse(fs.readFileSync(path.join(folder, name), 'utf8')),
          ])
      : [],
  );
  const frames = { ok: 0, total: 0, misses: [] as string[] };
  const states = { ok: 0, total: 0, misses: [] as string[] };
  const commands = { ok: 0, total: 0, misses: [] as string[] };
  const apart: string[] = [];
  const raw = (r: CorpusRecord) =>
    r.payload_raw ?? (typeof r.payload === 'string' ? r.payload : JSON.stringify(r.payload));

  /** Whether Hearth's values of a status show what the device reported, field by field. */
  const decodes = (status: JsonObject) => {
    const model = modelOf(status);
    const values = valuesOf(model, status);
    const wrong: string[] = [];
    let mapped = 0;
    const unmapped: string[] = [];
    for (const [key, component] of Object.entries(status)) {
      const type = componentOf(key)?.type ?? key;
      if (PLUMBING.has(type)) continue;
      const fields = FIELDS[type];
      if (!fields) {
        unmapped.push(type);
        continue;
      }
      mapped++;
      const several =
        Object.keys(status).filter((k) => componentOf(k)?.type === type).length > 1 ||
        componentOf(key)?.id !== 0;
      for (const [from, to] of fields) {
        const reported = at(component, from);
        if (reported === undefined || reported === null) continue;
        // On a device with several of a kind, properties carry the id (`state_1`); a clash takes the type (`cct_power`).
        const suffix = several ? `_${componentOf(key)?.id}` : '';
        const [property, feature] = to.split('.') as [string, string | undefined];
        const candidates = [`${property}${suffix}`, `${type}_${property}${suffix}`];
        const found = candidates
          .map((p) => (feature ? at(values[p], feature) : values[p]))
          .find((v) => v !== undefined);
        const wanted = Array.isArray(reported)
          ? { r: reported[0], g: reported[1], b: reported[2] }
          : reported;
        if (JSON.stringify(found) !== JSON.stringify(wanted))
          wrong.push(`${key}.${from}: wanted ${JSON.stringify(wanted)}, got ${JSON.stringify(found)}`);
      }
    }
    return { mapped, unmapped, wrong };
  };

  const countState = (name: string, status: JsonObject) => {
    const { mapped, unmapped, wrong } = decodes(status);
    if (mapped === 0 && unmapped.length === 0) {
      apart.push(`${name}: ${Object.keys(status).join(', ')} (not a state Hearth shows)`);
      return;
    }
    states.total++;
    if (unmapped.length > 0 && mapped === 0) states.misses.push(`${name}: ${unmapped.join(', ')} not mapped`);
    else if (wrong.length > 0) states.misses.push(`${name}: ${wrong.join('; ')}`);
    else {
      states.ok++;
      if (unmapped.length > 0) apart.push(`${name}: ${unmapped.join(', ')} not mapped (the rest decoded)`);
    }
  };

  for (const [name, r] of records) {
    const text = raw(r);
    if (r.kind === 'notification') {
      frames.total++;
      const frame = parseNotification(text);
      if (!frame) {
        frames.misses.push(`${name}: not read`);
        continue;
      }
      frames.ok++;
      if (frame.kind === 'full' || frame.kind === 'delta') {
        countState(name, frame.status);
        for (const [key, wanted] of Object.entries(r.expect ?? {})) {
          // `switch:0.aenergy.total_Wh`: the field's value in Wh, as Hearth keeps it.
          const [component, ...rest] = key.split('.');
          const reported = at(frame.status[component as string], rest.join('.').replace(/_Wh$/, ''));
          if (JSON.stringify(reported) !== JSON.stringify(wanted))
            states.misses.push(
              `${name}: ${key} wanted ${JSON.stringify(wanted)}, read ${JSON.stringify(reported)}`,
            );
        }
      } else if (frame.kind === 'events') {
        const inputs = frame.events.filter((e) => e.component.startsWith('input:'));
        if (inputs.length === 0) {
          apart.push(
            `${name}: ${frame.events.map((e) => `${e.component} ${e.event}`).join(', ')} (no action: not an input's)`,
          );
          continue;
        }
        states.total++;
        const action = actionOf(modelOf({ 'input:0': { id: 0, state: null } }), frame.events);
        if (action === (inputs.at(-1) as { event: string }).event) states.ok++;
        else states.misses.push(`${name}: action ${String(action)}`);
      }
    } else if (r.kind === 'rpc_response') {
      frames.total++;
      if (parseReply(text)) frames.ok++;
      else frames.misses.push(`${name}: not read`);
    } else if (r.kind === 'availability') {
      frames.total++;
      states.total++;
      const online = text.trim() === 'true' ? true : text.trim() === 'false' ? false : undefined;
      if (online !== undefined) frames.ok++;
      else frames.misses.push(`${name}: ${text}`);
      if (online === r.expect?.available) states.ok++;
      else states.misses.push(`${name}: wanted ${String(r.expect?.available)}, got ${String(online)}`);
    } else if (r.kind === 'component_status' || r.kind === 'status_ntf') {
      frames.total++;
      const component = r.topic?.split('/status/')[1];
      if (!component || !componentOf(component) || !isObject(r.payload)) {
        frames.misses.push(`${name}: not read`);
        continue;
      }
      frames.ok++;
      countState(name, { [component]: r.payload });
      for (const [key, wanted] of Object.entries(r.expect ?? {}))
        if (JSON.stringify(at(r.payload, key)) !== JSON.stringify(wanted))
          states.misses.push(`${name}: ${key}`);
    } else if (r.kind === 'getstatus_dump') {
      frames.total++;
      const dump = r.payload as { device_info?: JsonObject; status?: JsonObject };
      if (!isObject(dump.status) || !isObject(dump.device_info) || typeof dump.device_info.id !== 'string') {
        frames.misses.push(`${name}: not read`);
        continue;
      }
      frames.ok++;
      countState(name, dump.status);
      // A device with nothing to show for is still listed with its parts (none missing).
      if (capabilitiesOf(modelOf(dump.status)).length === 0) states.misses.push(`${name}: no capability`);
    } else if (r.kind === 'rpc_request') {
      const pairing = COMMANDS[name];
      const payload = r.payload as { method: string; params?: JsonObject };
      if (!pairing) {
        apart.push(`${name}: ${payload.method} (no Hearth control sends it)`);
        continue;
      }
      commands.total++;
      try {
        let got: { method: string; params?: JsonObject }[];
        if ('poll' in pairing) got = [{ method: 'Shelly.GetStatus' }];
        else {
          const model = modelOf(pairing.status);
          const capabilities = capabilitiesOf(model);
          const power = model.parts.find((p) => p.kind === 'switch' || p.kind === 'light');
          const { values } = requestedValues(
            capabilities,
            pairing.request,
            capabilities.find((c) => c.property === power?.property),
          );
          got = [...values].flatMap(([property, value]) =>
            callsFor(model.parts.find((p) => p.property === property) as never, value),
          );
        }
        const wanted = JSON.stringify({ method: payload.method, params: payload.params });
        if (got.some((call) => JSON.stringify({ method: call.method, params: call.params }) === wanted))
          commands.ok++;
        else commands.misses.push(`${name}: wanted ${wanted}, got ${JSON.stringify(got)}`);
      } catch (error) {
        commands.misses.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    } else if (r.kind === 'command') apart.push(`${name}: the plain-text command topic (Hearth uses RPC)`);
    else apart.push(`${name}: ${r.kind}`);
  }

  const share = (s: { ok: number; total: number }) => (s.total === 0 ? 1 : s.ok / s.total);
  const line = (title: string, s: { ok: number; total: number; misses: string[] }) =>
    `${title}: ${s.ok}/${s.total} (${(share(s) * 100).toFixed(1)} %)${s.misses.length ? `\n  misses:\n    ${s.misses.join('\n    ')}` : ''}`;

  it('reads the frames, decodes the states and produces the RPC requests (each ≥ 95 %)', () => {
    console.log(
      [
        'Shelly corpus:',
        line('frames', frames),
        line('states', states),
        line('commands', commands),
        `not counted (${apart.length}):\n    ${apart.join('\n    ')}`,
      ].join('\n'),
    );
    expect(frames.total).toBeGreaterThan(0);
    expect(share(frames)).toBeGreaterThanOrEqual(0.95);
    expect(share(states)).toBeGreaterThanOrEqual(0.95);
    expect(share(commands)).toBeGreaterThanOrEqual(0.95);
  });
});
