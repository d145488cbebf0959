import { BATTERY_HYSTERESIS, type DeviceState } from '@hearth/contracts';

/**
 * docs/alerts.md#rules: the state properties of safety sensors, each an alarm when true
 * (Zigbee2MQTT's names; another source's adapter reports its sensors under the same names).
 */
export const SAFETY_PROPERTIES = ['water_leak', 'smoke', 'gas', 'carbon_monoxide', 'tamper'] as const;
export type SafetyProperty = (typeof SAFETY_PROPERTIES)[number];

/** The properties a message must carry for the battery or safety rule to look at it. */
const WATCHED = new Set<string>(['battery', 'battery_low', ...SAFETY_PROPERTIES]);

/** Whether a state message concerns the battery or safety rule (checked per message: cheap). */
export function concernsRules(state: DeviceState): boolean {
  for (const key in state) if (WATCHED.has(key)) return true;
  return false;
}

export interface BatteryReading {
  low: boolean;
  /** The reported level, if any. */
  level?: number;
  /** The device says battery_low: true. */
  flagged: boolean;
}

/**
 * The battery rule: low at or below `below` % or with `battery_low: true`; once low, cleared only
 * at `below` + 5 % or more (and no battery_low), so a level wobbling around the line alerts once.
 * Undefined when the state says nothing about the battery (or the rule is off).
 */
export function batteryReading(
  state: DeviceState,
  below: number | null,
  wasLow: boolean,
): BatteryReading | undefined {
  if (below === null) return undefined;
  const level =
    typeof state.battery === 'number' && Number.isFinite(state.battery) ? state.battery : undefined;
  const flag = typeof state.battery_low === 'boolean' ? state.battery_low : undefined;
  if (level === undefined && flag === undefined) return undefined;
  const flagged = flag === true;
  const lowByLevel = level !== undefined && (wasLow ? level < below + BATTERY_HYSTERESIS : level <= below);
  return { low: flagged || lowByLevel, ...(level !== undefined ? { level } : {}), flagged };
}

/** A battery incident gets worse when the level falls another 5 points below what people were told. */
export const batteryWorse = (told: number | undefined, now: number | undefined): boolean =>
  told !== undefined && now !== undefined && now <= told - BATTERY_HYSTERESIS;

/** The safety alarms a state has tripped, in the order of SAFETY_PROPERTIES. */
export function safetyTripped(state: DeviceState): SafetyProperty[] {
  return SAFETY_PROPERTIES.filter((property) => state[property] === true);
}
