/** How a virtual device's readings move over time: small random walks within plausible bounds. */
type Random = () => number;

const walk =
  (min: number, max: number, step: number, decimals = 1) =>
  (value: unknown, random: Random) => {
    const current = typeof value === 'number' ? value : (min + max) / 2;
    const next = Math.min(max, Math.max(min, current + (random() - 0.5) * 2 * step));
    return Number(next.toFixed(decimals));
  };

const DRIFT: Record<string, (value: unknown, random: Random, state: Record<string, unknown>) => unknown> = {
  temperature: walk(17, 26, 0.2),
  local_temperature: walk(16, 25, 0.2),
  humidity: walk(30, 75, 0.8),
  pressure: walk(990, 1030, 0.5),
  illuminance: walk(0, 800, 25, 0),
  illuminance_lux: walk(0, 800, 25, 0),
  voc: walk(50, 900, 20, 0),
  pm25: walk(1, 60, 2, 0),
  pi_heating_demand: walk(0, 100, 5, 0),
  linkquality: walk(40, 255, 8, 0),
  frequency: walk(49.9, 50.1, 0.02, 2),
  strength: walk(1, 20, 2, 0),
  voltage: (value, random) =>
    typeof value === 'number' && value > 1000
      ? walk(2900, 3100, 5, 0)(value, random)
      : walk(226, 234, 0.6)(value, random),
  power: (_value, random, state) =>
    state.state === 'OFF' ? 0 : Number((3 + random() * 1200 * (random() < 0.2 ? 1 : 0.01)).toFixed(1)),
  current: (_value, _random, state) =>
    typeof state.power === 'number' ? Number((state.power / 230).toFixed(2)) : 0,
  energy: (value, random, state) =>
    typeof value === 'number' && state.state !== 'OFF' ? Number((value + random() * 0.01).toFixed(3)) : value,
  battery: (value, random) => (typeof value === 'number' && random() < 0.02 ? Math.max(1, value - 1) : value),
};

/** Binary sensors that change now and then (a door opens, someone walks past). */
const FLIPS: Record<string, number> = {
  contact: 0.1,
  occupancy: 0.25,
  presence: 0.1,
  vibration: 0.08,
};

/**
 * Alarms never go off by themselves: with alerts on (docs/alerts.md), a demo leak or smoke alarm
 * would be a critical incident that mails and pushes the household every few minutes. One set by
 * hand (a test publishing it) clears soon, as a real sensor's does.
 */
const ALARMS = new Set(['water_leak', 'smoke', 'tamper']);

/** One plausible change of a device's state (mutates and returns it). */
export function evolve(state: Record<string, unknown>, random: Random): Record<string, unknown> {
  for (const key of Object.keys(state)) {
    const drift = DRIFT[key];
    if (drift) state[key] = drift(state[key], random, state);
    if (typeof state[key] !== 'boolean') continue;
    if (ALARMS.has(key)) {
      if (state[key] && random() < 0.5) state[key] = false;
      continue;
    }
    const flip = FLIPS[key];
    if (flip !== undefined && random() < flip) state[key] = !state[key];
  }
  if (typeof state.battery === 'number' && 'battery_low' in state) state.battery_low = state.battery < 15;
  return state;
}
