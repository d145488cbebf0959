// Home Assistant MQTT discovery devices for the benchmarks (issue 35): a household of what
// ESPHome, Tasmota, BLE gateways and thermostat bridges announce, as retained configs under the
// discovery prefix (docs/devicehub.md#home-assistant-discovery-mapping), each device with one JSON
// state topic that all its entities read through their templates. Five kinds, dealt round-robin:
//   plug        Tasmota-like: abbreviated keys, `~`, a switch and four energy sensors on tele/…/SENSOR
//   multisensor ESPHome-like: abbreviated keys and origin, sensors with device classes, a motion sensor
//   bulb        ESPHome-like: a JSON-schema light with brightness and colour, a signal sensor
//   ble         one device-based config (`<prefix>/device/<id>/config`) with `cmps`, full entity keys, the
//               state topic at the root and under the prefix, a door sensor by template
//   thermostat  full keys, per-entity configs: a climate from one JSON state, a child-lock switch, battery
// Every device also has a `bench_ts` sensor: the send time a message ends with (the hub keeps only
// what an entity reads, as Zigbee2MQTT's adapter keeps only what a device exposes).

const KINDS = ['plug', 'multisensor', 'bulb', 'ble', 'thermostat'];

const hex = (i, digits) => i.toString(16).toUpperCase().padStart(digits, '0');
const mac = (i) => `A4:CF:12:${hex((i >> 16) & 0xff, 2)}:${hex((i >> 8) & 0xff, 2)}:${hex(i & 0xff, 2)}`;
const number = (i) => String(i).padStart(3, '0');

/** The entity every device has: the message's send time. */
const benchTs = (abbreviated) =>
  abbreviated
    ? { name: 'Bench ts', unit_of_meas: 'ms', ent_cat: 'diagnostic', val_tpl: '{{ value_json.bench_ts }}' }
    : {
        name: 'Bench ts',
        unit_of_measurement: 'ms',
        entity_category: 'diagnostic',
        value_template: '{{ value_json.bench_ts }}',
      };

function plug(i, prefix) {
  const topic = `tasmota_${hex(i, 6)}`;
  const id = mac(i).replaceAll(':', '');
  const dev = {
    ids: [id],
    cns: [['mac', mac(i)]],
    name: `Plug ${number(i)}`,
    mdl: 'Nous A1T',
    sw: '14.3.0(release-tasmota)',
    mf: 'Tasmota',
  };
  const shared = {
    '~': `tele/${topic}`,
    stat_t: '~/SENSOR',
    avty_t: '~/LWT',
    pl_avail: 'Online',
    pl_not_avail: 'Offline',
    dev,
  };
  const energy = (key, unit, deviceClass, stateClass) => ({
    name: key,
    unit_of_meas: unit,
    dev_cla: deviceClass,
    stat_cla: stateClass,
    val_tpl: `{{ value_json['ENERGY']['${key}'] }}`,
  });
  const entities = {
    switch: {
      relay: {
        name: null,
        cmd_t: `cmnd/${topic}/POWER`,
        val_tpl: '{{ value_json.POWER }}',
        pl_on: 'ON',
        pl_off: 'OFF',
      },
    },
    sensor: {
      power: energy('Power', 'W', 'power', 'measurement'),
      energy: energy('Total', 'kWh', 'energy', 'total_increasing'),
      voltage: energy('Voltage', 'V', 'voltage', 'measurement'),
      current: energy('Current', 'A', 'current', 'measurement'),
      bench_ts: benchTs(true),
    },
  };
  return {
    configs: perEntity(prefix, id, entities, shared, (object) => ({ uniq_id: `${id}_${object}` })),
    stateTopic: `tele/${topic}/SENSOR`,
    availability: [[`tele/${topic}/LWT`, 'Online']],
    capabilities: 6,
    state: (seed) => ({
      Time: new Date(Date.UTC(2025, 0, 1, 0, 0, seed % 60)).toISOString().slice(0, 19),
      ENERGY: {
        TotalStartTime: '2024-06-01T10:00:00',
        Total: Math.round((12 + ((seed * 13) % 500) / 100) * 1000) / 1000,
        Yesterday: 0.42,
        Today: Math.round(((seed * 7) % 300) / 10) / 100,
        Power: (seed * 37) % 2000,
        ApparentPower: (seed * 41) % 2100,
        ReactivePower: (seed * 11) % 200,
        Factor: Math.round(((seed * 3) % 100) / 10) / 10,
        Voltage: 225 + (seed % 10),
        Current: Math.round(((seed * 37) % 2000) / 23) / 100,
      },
      POWER: seed % 2 === 0 ? 'ON' : 'OFF',
    }),
  };
}

function multisensor(i, prefix) {
  const node = `esp-multisensor-${number(i)}`;
  const dev = {
    ids: [
      mac(i + 0x300000)
        .replaceAll(':', '')
        .toLowerCase(),
    ],
    name: `Multisensor ${number(i)}`,
    sw: 'esphome v2025.2.0 Feb 20 2025, 10:15:42',
    mdl: 'esp32dev',
    mf: 'espressif',
    sa: i % 3 === 0 ? 'Hallway' : undefined,
  };
  const shared = {
    stat_t: `${node}/sensor/state`,
    avty_t: `${node}/status`,
    dev,
    o: { name: 'ESPHome', sw: '2025.2.0', url: 'https://esphome.io' },
  };
  const sensor = (key, unit, deviceClass, extra = {}) => ({
    name: deviceClass ? deviceClass[0].toUpperCase() + deviceClass.slice(1).replaceAll('_', ' ') : key,
    unit_of_meas: unit,
    ...(deviceClass ? { dev_cla: deviceClass } : {}),
    stat_cla: 'measurement',
    val_tpl: `{{ value_json.${key} | round(1) }}`,
    ...extra,
  });
  const entities = {
    sensor: {
      temperature: sensor('temperature', '°C', 'temperature'),
      humidity: sensor('humidity', '%', 'humidity'),
      pressure: sensor('pressure', 'hPa', 'atmospheric_pressure'),
      wifi_signal: sensor('rssi', 'dBm', 'signal_strength', { ent_cat: 'diagnostic' }),
      uptime: {
        name: 'Uptime',
        unit_of_meas: 's',
        ic: 'mdi:timer-outline',
        stat_cla: 'total_increasing',
        ent_cat: 'diagnostic',
        val_tpl: '{{ value_json.uptime | int }}',
      },
      bench_ts: benchTs(true),
    },
    binary_sensor: {
      motion: { name: 'Motion', dev_cla: 'motion', val_tpl: '{{ value_json.motion }}' },
    },
  };
  return {
    configs: perEntity(prefix, node, entities, shared, (object) => ({ uniq_id: `${node}-${object}` })),
    stateTopic: `${node}/sensor/state`,
    availability: [[`${node}/status`, 'online']],
    capabilities: 7,
    state: (seed) => ({
      temperature: 18 + ((seed * 7) % 80) / 10 + 0.04,
      humidity: 40 + ((seed * 3) % 200) / 10,
      pressure: 1000 + ((seed * 11) % 300) / 10,
      rssi: -40 - (seed % 40),
      uptime: 3600 + seed * 10,
      motion: seed % 5 === 0 ? 'ON' : 'OFF',
    }),
  };
}

function bulb(i, prefix) {
  const node = `esp-bulb-${number(i)}`;
  const dev = {
    ids: [
      mac(i + 0x100000)
        .replaceAll(':', '')
        .toLowerCase(),
    ],
    name: `Bulb ${number(i)}`,
    sw: 'esphome v2025.2.0',
    mdl: 'esp8285',
    mf: 'espressif',
  };
  const shared = { avty_t: `${node}/status`, dev, o: { name: 'ESPHome', sw: '2025.2.0' } };
  const stateTopic = `${node}/light/state`;
  const entities = {
    light: {
      light: {
        name: null,
        schema: 'json',
        stat_t: stateTopic,
        cmd_t: `${node}/light/command`,
        brightness: true,
        sup_clrm: ['color_temp', 'rgb'],
        min_mirs: 153,
        max_mirs: 500,
        effect: true,
        fx_list: ['None', 'Rainbow', 'Candle'],
      },
    },
    sensor: {
      wifi_signal: {
        name: 'WiFi signal',
        stat_t: stateTopic,
        unit_of_meas: 'dBm',
        dev_cla: 'signal_strength',
        stat_cla: 'measurement',
        ent_cat: 'diagnostic',
        val_tpl: '{{ value_json.rssi }}',
      },
      bench_ts: { ...benchTs(true), stat_t: stateTopic },
    },
  };
  return {
    configs: perEntity(prefix, node, entities, shared, (object) => ({ uniq_id: `${node}-${object}` })),
    stateTopic,
    availability: [[`${node}/status`, 'online']],
    capabilities: 3,
    state: (seed) => {
      const colour = seed % 3 === 0;
      return {
        state: seed % 4 === 0 ? 'OFF' : 'ON',
        brightness: (seed * 17) % 256,
        color_mode: colour ? 'rgb' : 'color_temp',
        ...(colour ? {} : { color_temp: 153 + ((seed * 13) % 347) }),
        color: { r: (seed * 31) % 256, g: (seed * 57) % 256, b: (seed * 91) % 256 },
        effect: 'None',
        rssi: -50 - (seed % 30),
      };
    },
  };
}

function ble(i, prefix) {
  const id = `ble_${mac(i + 0x200000)
    .replaceAll(':', '')
    .toLowerCase()}`;
  const base = `${prefix}/device/${id}`;
  const sensor = (key, unit, deviceClass, extra = {}) => ({
    p: 'sensor',
    name: deviceClass[0].toUpperCase() + deviceClass.slice(1),
    unit_of_measurement: unit,
    device_class: deviceClass,
    state_class: 'measurement',
    value_template: `{{ value_json.${key} | float(0) }}`,
    unique_id: `${id}_${key}`,
    ...extra,
  });
  const config = {
    dev: {
      ids: [id],
      cns: [['bluetooth', mac(i + 0x200000)]],
      name: `Door sensor ${number(i)}`,
      mf: 'Xiaomi',
      mdl: 'MCCGQ02HL',
      via_device: 'ble_gateway_01',
    },
    o: { name: 'BLE gateway', sw: '1.8.0' },
    '~': base,
    state_topic: '~/state',
    availability: [{ topic: '~/availability' }],
    qos: 0,
    cmps: {
      temperature: sensor('temperature', '°C', 'temperature'),
      humidity: sensor('humidity', '%', 'humidity'),
      illuminance: sensor('illuminance', 'lx', 'illuminance'),
      battery: sensor('battery', '%', 'battery', { entity_category: 'diagnostic' }),
      rssi: sensor('rssi', 'dBm', 'signal_strength', { entity_category: 'diagnostic' }),
      contact: {
        p: 'binary_sensor',
        name: 'Door',
        device_class: 'door',
        value_template: "{{ 'OFF' if value_json.contact else 'ON' }}",
        unique_id: `${id}_contact`,
      },
      bench_ts: { p: 'sensor', unique_id: `${id}_bench_ts`, ...benchTs(false) },
    },
  };
  return {
    configs: [[`${base}/config`, config]],
    stateTopic: `${base}/state`,
    availability: [[`${base}/availability`, 'online']],
    capabilities: 7,
    state: (seed) => ({
      temperature: 19 + ((seed * 7) % 60) / 10,
      humidity: 35 + ((seed * 3) % 300) / 10,
      illuminance: (seed * 29) % 1000,
      battery: 100 - (seed % 30),
      rssi: -70 - (seed % 20),
      contact: seed % 3 !== 0,
    }),
  };
}

function thermostat(i, prefix) {
  const id = `trv_${number(i)}`;
  const root = `thermostat/${id}`;
  const stateTopic = `${root}/state`;
  const device = {
    identifiers: [`zwavejs_${id}`],
    name: `Radiator ${number(i)}`,
    manufacturer: 'Eurotronic',
    model: 'Spirit Z-Wave Plus',
    sw_version: '0.16',
    suggested_area: ['Living room', 'Bedroom', 'Office', 'Bathroom'][i % 4],
  };
  const shared = {
    availability_topic: `${root}/availability`,
    device,
    origin: { name: 'Thermostat bridge', sw_version: '3.2.0' },
  };
  const entities = {
    climate: {
      thermostat: {
        name: null,
        modes: ['off', 'heat', 'auto'],
        mode_state_topic: stateTopic,
        mode_state_template: '{{ value_json.mode }}',
        mode_command_topic: `${root}/mode/set`,
        temperature_state_topic: stateTopic,
        temperature_state_template: '{{ value_json.setpoint }}',
        temperature_command_topic: `${root}/setpoint/set`,
        current_temperature_topic: stateTopic,
        current_temperature_template: '{{ value_json.temperature }}',
        action_topic: stateTopic,
        action_template: "{{ 'heating' if value_json.valve > 0 else 'idle' }}",
        min_temp: 8,
        max_temp: 28,
        temp_step: 0.5,
        temperature_unit: 'C',
      },
    },
    switch: {
      child_lock: {
        name: 'Child lock',
        state_topic: stateTopic,
        command_topic: `${root}/child_lock/set`,
        value_template: '{{ value_json.child_lock }}',
        payload_on: 'LOCK',
        payload_off: 'UNLOCK',
        entity_category: 'config',
        icon: 'mdi:lock',
      },
    },
    sensor: {
      battery: {
        name: 'Battery',
        state_topic: stateTopic,
        unit_of_measurement: '%',
        device_class: 'battery',
        state_class: 'measurement',
        entity_category: 'diagnostic',
        value_template: '{{ value_json.battery }}',
      },
      bench_ts: { ...benchTs(false), state_topic: stateTopic },
    },
  };
  return {
    configs: perEntity(prefix, id, entities, shared, (object) => ({ unique_id: `${id}_${object}` })),
    stateTopic,
    availability: [[`${root}/availability`, 'online']],
    capabilities: 4,
    state: (seed) => ({
      mode: ['heat', 'auto', 'heat', 'off'][seed % 4],
      setpoint: 16 + (seed % 12) / 2,
      temperature: 17 + ((seed * 7) % 60) / 10,
      valve: (seed * 13) % 100,
      child_lock: seed % 7 === 0 ? 'LOCK' : 'UNLOCK',
      battery: 95 - (seed % 40),
    }),
  };
}

/** `<prefix>/<component>/<node>/<object>/config` for each entity, the shared keys on every one. */
function perEntity(prefix, node, entities, shared, unique) {
  const configs = [];
  for (const [component, objects] of Object.entries(entities))
    for (const [object, own] of Object.entries(objects))
      configs.push([
        `${prefix}/${component}/${node}/${object}/config`,
        { ...own, ...unique(object), ...shared },
      ]);
  return configs;
}

const MAKERS = { plug, multisensor, bulb, ble, thermostat };

/**
 * `count` discovery devices under `prefix`: their retained configs and availability, each device's
 * state topic and kind, the capabilities the hub should list for it, the MQTT filters that take in
 * every state topic (for a plain subscriber), and a device's state for a message (`seed` varies it).
 */
export function discoveryDevices(count, { prefix = 'homeassistant' } = {}) {
  const devices = Array.from({ length: count }, (_, i) => {
    const kind = KINDS[i % KINDS.length];
    return { kind, ...MAKERS[kind](Math.floor(i / KINDS.length), prefix) };
  });
  return {
    /** Retained messages to publish before the devices are expected: availability first, then configs. */
    retained: [
      ...devices.flatMap((d) => d.availability),
      ...devices.flatMap((d) => d.configs.map(([topic, config]) => [topic, JSON.stringify(config)])),
    ],
    topics: devices.map((d) => d.stateTopic),
    kinds: devices.map((d) => d.kind),
    capabilities: devices.reduce((sum, d) => sum + d.capabilities, 0),
    filters: [
      'tele/+/SENSOR',
      '+/sensor/state',
      '+/light/state',
      `${prefix}/device/+/state`,
      'thermostat/+/state',
    ],
    state: (i, seed = 0) => devices[i].state(seed + i),
  };
}
