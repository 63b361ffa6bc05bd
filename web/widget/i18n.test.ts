import { describe, expect, it } from 'vitest';
import { pickLang, translator, widgetTextsEn, widgetTextsEs } from './i18n';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('widget texts', () => {
  it('has the same keys and placeholders in English and Spanish, none empty', () => {
    expect(Object.keys(widgetTextsEs).sort()).toEqual(Object.keys(widgetTextsEn).sort());
    for (const [key, en] of Object.entries(widgetTextsEn)) {
      const es = widgetTextsEs[key as keyof typeof widgetTextsEn];
      expect(es.trim(), key).not.toBe('');
      expect(placeholders(es), key).toEqual(placeholders(en));
    }
  });

  it('picks data-lang, else the browser language, else English', () => {
    expect(pickLang('es', 'en-US')).toBe('es');
    expect(pickLang('EN', 'es-ES')).toBe('en');
    expect(pickLang(null, 'es-MX')).toBe('es');
    expect(pickLang('fr', 'de-DE')).toBe('en');
    expect(pickLang(undefined, undefined)).toBe('en');
  });

  it('fills placeholders', () => {
    expect(translator('en')('openChat', { name: 'Ana' })).toBe('Open chat with Ana');
    expect(translator('es')('openChat', { name: 'Ana' })).toBe('Abrir chat con Ana');
  });
});
