// Real device definitions for the benchmarks (issue 10): devices cloned round-robin from the real
// lights, plugs and sensors of zigbee-herdsman-converters (the version server's tests use), listed
// the way Zigbee2MQTT publishes them in `bridge/devices`, each with a state of every property its
// definition exposes, as Zigbee2MQTT publishes it (its whole cached state on every message).
// Definitions are loaded the way server/src/devicehub/adapters/zigbee2mqtt/fixtures/real-definitions.ts does.
import * as zhc from 'zigbee-herdsman-converters';
import devicesModule from 'zigbee-herdsman-converters/devices/index';
import { sleep } from './lib.mjs';

/** What zigbee-herdsman-converters calls an expose function with when it has no device at hand. */
const DUMMY_DEVICE = { isDummyDevice: true };
const READ = 1;
const SET = 2;
const SENSOR_PROPERTIES = new Set([
  'temperature',
  'humidity',
  'occupancy',
  'contact',
  'illuminance',
  'pressure',
]);
const ACTUATORS = new Set(['light', 'switch', 'climate', 'cover', 'lock', 'fan']);
const POWER = new Set(['power', 'energy']);

// Zigbee2MQTT adds these to every device it lists.
const LINKQUALITY = {
  type: 'numeric',
  name: 'linkquality',
  label: 'Linkquality',
  property: 'linkquality',
  access: READ,
  unit: 'lqi',
  description: 'Link quality (signal strength)',
  value_min: 0,
  value_max: 255,
  category: 'diagnostic',
};

/** bench_ts carries a message's send time; exposed, because the hub keeps only the keys a device exposes. */
export const BENCH_TS_EXPOSE = {
  type: 'numeric',
  name: 'bench_ts',
  property: 'bench_ts',
  access: READ,
  unit: 'ms',
  description: 'bench_ts',
};

let cached;

/** Every definition as plain JSON: {model, vendor, description, exposes, options, ota}. */
function definitions() {
  if (cached) return cached;
  // A CommonJS module: under Node's ESM loader its `default` is module.exports itself.
  const all = devicesModule.default ?? devicesModule;
  cached = [];
  for (const raw of all) {
    let definition;
    let exposes;
    let options;
    try {
      definition = zhc.prepareDefinition(raw);
      exposes =
        typeof definition.exposes === 'function' ? definition.exposes(DUMMY_DEVICE, {}) : definition.exposes;
      options = JSON.parse(JSON.stringify(definition.options ?? []));
    } catch {
      continue;
    }
    cached.push({
      model: definition.model,
      vendor: definition.vendor,
      description: definition.description,
      exposes: JSON.parse(JSON.stringify(exposes)),
      options,
      ota: Boolean(definition.ota),
    });
  }
  return cached;
}

const leaves = (expose) => (expose.features ? expose.features.flatMap(leaves) : [expose]);

/** lights, plugs (a switch that measures power) and sensors (only readable, with a sensor reading). */
export function realClasses() {
  const lights = [];
  const plugs = [];
  const sensors = [];
  for (const definition of definitions()) {
    const types = new Set(definition.exposes.map((expose) => expose.type));
    const properties = new Set(definition.exposes.flatMap(leaves).map((leaf) => leaf.property));
    const settable = definition.exposes.flatMap(leaves).some((leaf) => (leaf.access ?? 0) & SET);
    if (types.has('light')) lights.push(definition);
    else if (types.has('switch') && [...POWER].some((p) => properties.has(p)) && !types.has('climate'))
      plugs.push(definition);
    else if (
      !settable &&
      ![...types].some((type) => ACTUATORS.has(type)) &&
      [...SENSOR_PROPERTIES].some((p) => properties.has(p))
    )
      sensors.push(definition);
  }
  return { lights, plugs, sensors };
}

/** A plausible value for one exposed feature (`seed` varies it between messages). */
function sampleValue(feature, seed) {
  switch (feature.type) {
    case 'binary':
      return seed % 2 === 0 ? feature.value_on : feature.value_off;
    case 'numeric': {
      const min = feature.value_min ?? 0;
      const max = feature.value_max ?? min + 100;
      const span = Math.max(1, max - min);
      return Math.round((min + ((seed * 7919) % span)) * 10) / 10;
    }
    case 'enum':
      return feature.values?.length ? feature.values[seed % feature.values.length] : null;
    case 'text':
      return '';
    case 'list':
      return [];
    default:
      if (feature.features) return stateOf(feature.features, seed);
      return null;
  }
}

/** The state Zigbee2MQTT publishes for these exposes: every readable property. */
function stateOf(exposes, seed) {
  const state = {};
  for (const expose of exposes) {
    if (ACTUATORS.has(expose.type) || (expose.type === 'composite' && !expose.property)) {
      Object.assign(state, stateOf(expose.features ?? [], seed));
      continue;
    }
    if (!expose.property || !((expose.access ?? READ) & READ)) continue;
    state[expose.property] = sampleValue(expose, seed);
  }
  return state;
}

const CLASS_TYPE = { light: 'Router', plug: 'Router', sensor: 'EndDevice' };

/** Alarms that stay clear in a household (alerts make each one a critical incident). */
export const SAFETY_ALARMS = ['water_leak', 'smoke', 'gas', 'carbon_monoxide', 'tamper'];

/**
 * What a household's devices keep from message to message: safety alarms and battery_low clear, a
 * battery at its own level. Other readings change with every message.
 */
function steadyOf(exposes, i) {
  const steady = {};
  for (const feature of exposes.flatMap(leaves)) {
    if (
      feature.type === 'binary' &&
      (SAFETY_ALARMS.includes(feature.property) || feature.property === 'battery_low')
    )
      steady[feature.property] = feature.value_off;
    else if (feature.type === 'numeric' && feature.property === 'battery')
      steady.battery = sampleValue(feature, i);
  }
  return steady;
}

/**
 * `count` devices cloned round-robin from real lights, plugs and sensors: the `bridge/devices`
 * payload (Zigbee2MQTT's format) and a function giving a device's whole state for a message.
 * `name(i)` names device i; `extraExposes` are added to every definition (e.g. the bench's marker).
 * A household's alarms stay clear and its batteries steady (steadyOf); `flapping` alternates those
 * with every message too (an alerts storm: an incident opened or resolved per message).
 */
export function realDevices(count, { name, extraExposes = [], flapping = false }) {
  const classes = realClasses();
  const pools = [
    ['light', classes.lights],
    ['plug', classes.plugs],
    ['sensor', classes.sensors],
  ];
  const list = [];
  const definitionOf = [];
  for (let i = 0; i < count; i++) {
    const [kind, pool] = pools[i % pools.length];
    const definition = pool[Math.floor(i / pools.length) % pool.length];
    const exposes = [...definition.exposes, LINKQUALITY, ...extraExposes];
    definitionOf.push({ kind, definition, exposes });
    const ieee = `0x00158d00${i.toString(16).padStart(8, '0')}`;
    list.push({
      ieee_address: ieee,
      friendly_name: name(i),
      type: CLASS_TYPE[kind],
      network_address: 1000 + i,
      supported: true,
      disabled: false,
      interview_completed: true,
      interviewing: false,
      manufacturer: definition.vendor,
      model_id: definition.model,
      power_source: kind === 'sensor' ? 'Battery' : 'Mains (single phase)',
      software_build_id: '1.0.0',
      date_code: '20240101',
      definition: {
        model: definition.model,
        vendor: definition.vendor,
        description: definition.description,
        exposes,
        options: definition.options,
        supports_ota: definition.ota,
        source: 'native',
      },
      endpoints: {
        1: {
          bindings: [],
          configured_reportings: [],
          clusters: { input: ['genBasic', 'genIdentify'], output: ['genOta'] },
          scenes: [],
        },
      },
    });
  }
  /** Device i's whole state for message `seed` (Zigbee2MQTT sends it all every time). */
  const state = (i, seed = 0) => {
    const entry = definitionOf[i];
    const { exposes, definition } = entry;
    const result = stateOf(exposes, seed + i);
    if (!flapping) {
      entry.steady ??= steadyOf(exposes, i);
      Object.assign(result, entry.steady);
    }
    if (definition.ota)
      result.update = { state: 'idle', installed_version: 16909577, latest_version: 16909577 };
    return result;
  };
  return { list, state, kinds: definitionOf.map((entry) => entry.kind) };
}

/** Publishes a fleet as Zigbee2MQTT does at start: the retained device list, then each device's state and availability. */
export async function publishFleet(bus, baseTopic, fleet) {
  await bus.publishAsync(`${baseTopic}/bridge/devices`, JSON.stringify(fleet.list), { retain: true });
  fleet.list.forEach((device, i) => {
    bus.publish(`${baseTopic}/${device.friendly_name}`, JSON.stringify(fleet.state(i)), { retain: true });
    bus.publish(`${baseTopic}/${device.friendly_name}/availability`, '{"state":"online"}', { retain: true });
  });
}

/**
 * Publishes whole device states round-robin at `rate` per second for `seconds`, each ending with its
 * send time (`bench_ts`); `texts[seed][i]` is device i's state as JSON without its closing brace.
 * Answers how many it published.
 */
export async function publishStatesAt(bus, { baseTopic, name, texts, rate, seconds }) {
  const now = () => performance.timeOrigin + performance.now();
  const devices = texts[0].length;
  const started = now();
  let count = 0;
  let device = 0;
  for (;;) {
    const elapsed = now() - started;
    if (elapsed >= seconds * 1000) break;
    const due = Math.floor((elapsed * rate) / 1000) - count;
    for (let i = 0; i < due; i++) {
      device = (device + 1) % devices;
      bus.publish(`${baseTopic}/${name(device)}`, `${texts[count % 2][device]},"bench_ts":${now()}}`);
      count++;
    }
    await sleep(2);
  }
  return count;
}
