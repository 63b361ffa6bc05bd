import { describe, expect, it } from 'vitest';
import { configChangeProblem, isMaskedSecret, isValidConfigValue, maskSecret, SECRET_MASK } from './appconfig';

describe('maskSecret', () => {
  it('shows the last 4 characters of a secret, nothing of an empty or short one', () => {
    expect(maskSecret('sk-proj-abcdefgh1234')).toBe('••••••••1234');
    expect(maskSecret('')).toBe('');
    expect(maskSecret('12345678')).toBe(SECRET_MASK);
    expect(isMaskedSecret(maskSecret('sk-proj-abcdefgh1234'))).toBe(true);
    expect(isMaskedSecret('sk-live')).toBe(false);
  });
});

describe('isValidConfigValue', () => {
  it('checks each kind', () => {
    expect(isValidConfigValue('signup_enabled', 'false')).toBe(true);
    expect(isValidConfigValue('signup_enabled', '0')).toBe(false);
    // A text key with choices (issue 32): only those.
    for (const provider of ['', 'searxng', 'brave', 'tavily']) expect(isValidConfigValue('web_search_provider', provider)).toBe(true);
    expect(isValidConfigValue('web_search_provider', 'Brave')).toBe(false);
    expect(isValidConfigValue('primary_color', '#A1b2C3')).toBe(true);
    expect(isValidConfigValue('primary_color', '#abcd')).toBe(false);
    expect(isValidConfigValue('dark_logo', '')).toBe(true);
    expect(isValidConfigValue('dark_logo', 'https://cdn.example.com/logo.png')).toBe(true);
    expect(isValidConfigValue('dark_logo', '/api/files/abc.png')).toBe(true);
    expect(isValidConfigValue('dark_logo', '//evil.example.com/logo.png')).toBe(false);
    expect(isValidConfigValue('dark_logo', 'data:image/png;base64,AAAA')).toBe(false);
    expect(isValidConfigValue('dark_logo', 'https://example.com/a b.png')).toBe(false);
    expect(isValidConfigValue('firebaseConfig', '')).toBe(true);
    expect(isValidConfigValue('firebaseConfig', '{"a":1}')).toBe(true);
    expect(isValidConfigValue('firebaseConfig', '{a:1}')).toBe(false);
    expect(isValidConfigValue('title', 'x'.repeat(2000))).toBe(true);
    expect(isValidConfigValue('title', 'x'.repeat(2001))).toBe(false);
    expect(isValidConfigValue('head_tracking_codes', 'x'.repeat(100_000))).toBe(true);
    expect(isValidConfigValue('head_tracking_codes', 'x'.repeat(100_001))).toBe(false);
  });
});

describe('configChangeProblem', () => {
  it('names the first unknown key or invalid value, and lets masked secrets through', () => {
    expect(configChangeProblem([{ key: 'app_name', value: 'Pluma' }])).toBeNull();
    expect(configChangeProblem([{ key: 'openai_secret_key', value: '••••••••1234' }])).toBeNull();
    expect(configChangeProblem([{ key: 'app_name', value: 'x' }, { key: 'nope', value: '' }])).toEqual({ messageKey: 'config_key_unknown', key: 'nope' });
    expect(configChangeProblem([{ key: 'toString', value: '' }])).toEqual({ messageKey: 'config_key_unknown', key: 'toString' });
    expect(configChangeProblem([{ key: 'accent_color', value: 'red' }])).toEqual({ messageKey: 'config_value_invalid', key: 'accent_color' });
  });
});
