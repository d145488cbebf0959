/** Colour conversions Home Assistant's lights use between `#RRGGBB`, HS (0–360, 0–100) and CIE xy. */

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

export const hexToRgb = (hex: string): Rgb => ({
  r: Number.parseInt(hex.slice(1, 3), 16),
  g: Number.parseInt(hex.slice(3, 5), 16),
  b: Number.parseInt(hex.slice(5, 7), 16),
});

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Hue 0–360 and saturation 0–100, as color_RGB_to_hs does (3 decimals). */
export function rgbToHs({ r, g, b }: Rgb): { hue: number; saturation: number } {
  const [rn, gn, bn] = [r / 255, g / 255, b / 255];
  const max = Math.max(rn, gn, bn);
  const min = Math.min(rn, gn, bn);
  const delta = max - min;
  let hue = 0;
  if (delta !== 0) {
    if (max === rn) hue = ((gn - bn) / delta) % 6;
    else if (max === gn) hue = (bn - rn) / delta + 2;
    else hue = (rn - gn) / delta + 4;
    hue *= 60;
    if (hue < 0) hue += 360;
  }
  const saturation = max === 0 ? 0 : (delta / max) * 100;
  return { hue: round(hue, 3), saturation: round(saturation, 3) };
}

/** Hue 0–360 and saturation 0–100 at full value, as RGB. */
export function hsToRgb(hue: number, saturation: number): Rgb {
  const s = Math.min(100, Math.max(0, saturation)) / 100;
  const h = (((hue % 360) + 360) % 360) / 60;
  const c = s;
  const x = c * (1 - Math.abs((h % 2) - 1));
  const [r1, g1, b1] =
    h < 1
      ? [c, x, 0]
      : h < 2
        ? [x, c, 0]
        : h < 3
          ? [0, c, x]
          : h < 4
            ? [0, x, c]
            : h < 5
              ? [x, 0, c]
              : [c, 0, x];
  const m = 1 - c;
  return { r: Math.round((r1 + m) * 255), g: Math.round((g1 + m) * 255), b: Math.round((b1 + m) * 255) };
}

/** CIE 1931 xy of an sRGB colour (gamma removed, wide gamut D65), as color_RGB_to_xy does. */
export function rgbToXy({ r, g, b }: Rgb): { x: number; y: number } {
  const linear = (c: number) => {
    const v = c / 255;
    return v > 0.04045 ? ((v + 0.055) / 1.055) ** 2.4 : v / 12.92;
  };
  const [rl, gl, bl] = [linear(r), linear(g), linear(b)];
  const X = rl * 0.664511 + gl * 0.154324 + bl * 0.162028;
  const Y = rl * 0.283881 + gl * 0.668433 + bl * 0.047685;
  const Z = rl * 0.000088 + gl * 0.07231 + bl * 0.986039;
  const sum = X + Y + Z;
  if (sum === 0) return { x: 0, y: 0 };
  return { x: round(X / sum, 3), y: round(Y / sum, 3) };
}
