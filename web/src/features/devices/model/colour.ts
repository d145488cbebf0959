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
