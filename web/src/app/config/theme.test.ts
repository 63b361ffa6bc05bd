import { describe, expect, it } from 'vitest';
import { buildTheme, colorShades, luminance, parseHexColor } from './theme';

describe('theme colours from the configuration', () => {
  it('parses #rgb and #rrggbb and refuses anything else', () => {
    expect(parseHexColor('#6d28d9')).toEqual([109, 40, 217]);
    expect(parseHexColor('fff')).toEqual([255, 255, 255]);
    expect(parseHexColor('red')).toBeNull();
    expect(parseHexColor('#12345')).toBeNull();
  });

  it('generates ten shades from light to dark with the configured colour at index 6', () => {
    const shades = colorShades('#6d28d9');
    expect(shades).toHaveLength(10);
    expect(shades[6]).toBe('#6d28d9');
    const lum = shades.map(luminance);
    for (let i = 1; i < lum.length; i++) expect(lum[i]).toBeLessThan(lum[i - 1]);
    expect(lum[0]).toBeGreaterThan(0.8);
  });

  it('falls back to the default colour for an invalid value', () => {
    expect(colorShades('not-a-colour')[6]).toBe('#6d28d9');
  });

  it('fills with a darker shade when the brand colour is too light for white text', () => {
    expect(buildTheme('#6d28d9', '#f59e0b').primaryShade).toEqual({ light: 6, dark: 7 });
    expect(buildTheme('#fde047', '#f59e0b').primaryShade).toEqual({ light: 8, dark: 7 });
    expect(buildTheme('#6d28d9', '#f59e0b').colors?.accent?.[6]).toBe('#f59e0b');
  });
});
