/**
 * docs/strings.md#colours: `#RRGGBB` or `RRGGBB` (any case), an object with `hex`, or with `r`, `g`, `b`
 * (each clamped to 0–255). Answers upper-case `#RRGGBB`, or undefined when it isn't a colour.
 */
export function parseColour(value: unknown): string | undefined {
  if (typeof value === 'string') {
    const match = /^#?([0-9a-f]{6})$/i.exec(value.trim());
    return match ? `#${match[1]!.toUpperCase()}` : undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if (record.hex !== undefined) return parseColour(record.hex);
  const channels = [record.r, record.g, record.b];
  if (!channels.every((c) => typeof c === 'number' && Number.isFinite(c))) return undefined;
  return `#${channels
    .map((c) =>
      Math.round(Math.min(255, Math.max(0, c as number)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')
    .toUpperCase()}`;
}
