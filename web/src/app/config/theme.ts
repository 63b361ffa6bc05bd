// The Mantine theme from the configuration (spec part 1 §3: primary and accent colours).
import { createTheme, type MantineColorsTuple, type MantineThemeOverride } from '@mantine/core';

type Rgb = [number, number, number];

export function parseHexColor(value: string): Rgb | null {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  if (!match) return null;
  const hex = match[1].length === 3 ? [...match[1]].map((c) => c + c).join('') : match[1];
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
}

const toHex = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
const mix = (from: Rgb, to: Rgb, amount: number): Rgb => from.map((c, i) => c + (to[i] - c) * amount) as Rgb;

// Index 6 is the configured colour itself (Mantine's default filled shade in light mode); lighter tints
// come from mixing with white, darker shades from mixing with black.
const TINTS = [0.93, 0.84, 0.68, 0.52, 0.36, 0.18];
const SHADES = [0.14, 0.28, 0.42];

/** Ten shades (0 lightest … 9 darkest) around a hex colour, as Mantine expects for a theme colour. */
export function colorShades(hex: string, fallback = '#6d28d9'): MantineColorsTuple {
  const base = parseHexColor(hex) ?? parseHexColor(fallback) ?? [109, 40, 217];
  const tints = TINTS.map((amount) => toHex(mix(base, [255, 255, 255], amount)));
  const shades = SHADES.map((amount) => toHex(mix(base, [0, 0, 0], amount)));
  return [...tints, toHex(base), ...shades] as unknown as MantineColorsTuple;
}

/** WCAG relative luminance of a hex colour (0 black … 1 white). */
export function luminance(hex: string): number {
  const rgb = parseHexColor(hex);
  if (!rgb) return 0;
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

const SYSTEM_FONTS =
  "Inter, ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif";

export function buildTheme(primary: string, accent: string): MantineThemeOverride {
  // A very light brand colour cannot carry white text or links on white: use a darker shade for fills.
  const lightShade = luminance(primary) > 0.3 ? 8 : 6;
  return createTheme({
    primaryColor: 'brand',
    primaryShade: { light: lightShade, dark: 7 },
    colors: { brand: colorShades(primary), accent: colorShades(accent, '#f59e0b') },
    // Text on filled buttons and badges switches to black on light colours (contrast-safe).
    autoContrast: true,
    luminanceThreshold: 0.35,
    fontFamily: SYSTEM_FONTS,
    headings: { fontFamily: SYSTEM_FONTS, fontWeight: '700' },
    defaultRadius: 'md',
    cursorType: 'pointer',
    focusRing: 'auto',
    // No transitions for visitors whose system asks for less motion (global.css does the same for CSS).
    respectReducedMotion: true,
  });
}
