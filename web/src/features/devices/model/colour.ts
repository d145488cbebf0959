/** docs/strings.md#colours: accepted forms, normalised to upper-case #RRGGBB. */
export const DEFAULT_COLOUR = '#FFFFFF';

const HEX = /^#?([0-9a-f]{6})$/i;

const channel = (value: unknown): string | null => {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) return null;
  const clamped = Math.min(255, Math.max(0, Math.round(number)));
  return clamped.toString(16).padStart(2, '0');
};

/** The colour as upper-case #RRGGBB, or null when the value holds no valid colour. */
export function normaliseColour(value: unknown): string | null {
  if (typeof value === 'string') {
    const match = HEX.exec(value.trim());
    return match?.[1] ? `#${match[1].toUpperCase()}` : null;
  }
  if (value && typeof value === 'object') {
    const colour = value as Record<string, unknown>;
    if (colour.hex !== undefined) return normaliseColour(colour.hex);
    const parts = [channel(colour.r), channel(colour.g), channel(colour.b)];
    if (parts.every((part) => part !== null)) return `#${parts.join('')}`.toUpperCase();
  }
  return null;
}

export const colourOrDefault = (value: unknown) => normaliseColour(value) ?? DEFAULT_COLOUR;

const finiteNumber = (value: unknown): number | null => {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : null;
};

/** Hue (0–360) and saturation (0–100) at full brightness as #RRGGBB (HSV with V = 100 %). */
export function hueSaturationToHex(hue: number, saturation: number): string {
  const h = (((hue % 360) + 360) % 360) / 60;
  const s = Math.min(100, Math.max(0, saturation)) / 100;
  const channel = (n: number) => {
    const k = (n + h) % 6;
    return Math.round(255 * (1 - s * Math.max(0, Math.min(k, 4 - k, 1))));
  };
  return normaliseColour({ r: channel(5), g: channel(3), b: channel(1) }) as string;
}

/**
 * A colour as a device reports it in its state: what normaliseColour accepts, or a hue and
 * saturation (`{hue, saturation}` or `{h, s}`, as Home Assistant, Tasmota and Zigbee2MQTT's
 * colour_hs lights report it). Null when it holds no colour.
 */
export function reportedColour(value: unknown): string | null {
  const hex = normaliseColour(value);
  if (hex || !value || typeof value !== 'object') return hex;
  const colour = value as Record<string, unknown>;
  const hue = finiteNumber(colour.hue ?? colour.h);
  const saturation = finiteNumber(colour.saturation ?? colour.s);
  return hue === null || saturation === null ? null : hueSaturationToHex(hue, saturation);
}
