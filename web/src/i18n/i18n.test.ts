// Bilingual guarantees: every language file has the same keys and placeholders as its counterpart,
// and the spec's texts used on these screens exist in English (verbatim) and in Spanish.
import { serverMessages } from '@pluma/common/messages';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import en from './en.json';
import es from './es.json';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

function flatten(value: Json, prefix = '', out: Record<string, string> = {}): Record<string, string> {
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) flatten(child, prefix ? `${prefix}.${key}` : key, out);
  } else {
    out[prefix] = String(value);
  }
  return out;
}

const dir = import.meta.dirname;
const read = (file: string) => flatten(JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Json);
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)[^}]*\}\}|<(\w+)>/g)].map((m) => m[1] ?? m[2]).sort();

// Pairs: en.json ↔ es.json and every <namespace>.en.json ↔ <namespace>.es.json (landing, privacy...).
const files = readdirSync(dir).filter((file) => file.endsWith('.json'));
const pairs: [string, string][] = [['en.json', 'es.json']];
for (const file of files) {
  const match = /^(.+)\.en\.json$/.exec(file);
  if (match) pairs.push([file, `${match[1]}.es.json`]);
}

describe('translation files', () => {
  it('come in English/Spanish pairs', () => {
    for (const file of files) {
      const counterpart = file === 'en.json' ? 'es.json' : file === 'es.json' ? 'en.json' : file.replace(/\.(en|es)\.json$/, (_, l: string) => `.${l === 'en' ? 'es' : 'en'}.json`);
      expect(files, `${file} has no counterpart`).toContain(counterpart);
    }
    expect(pairs.length).toBeGreaterThanOrEqual(2);
  });

  it.each(pairs)('%s and %s have the same keys, non-empty texts and the same placeholders', (enFile, esFile) => {
    const english = read(enFile);
    const spanish = read(esFile);
    expect(Object.keys(spanish).sort()).toEqual(Object.keys(english).sort());
    for (const [key, text] of Object.entries(english)) {
      expect(text.trim(), `${enFile} ${key} is empty`).not.toBe('');
      expect(spanish[key].trim(), `${esFile} ${key} is empty`).not.toBe('');
      expect(placeholders(spanish[key]), `${esFile} ${key} placeholders`).toEqual(placeholders(text));
    }
  });
});

// The spec's texts shown by the screens of this package (part 1 §2, §5, §8; part 2 §2, §8).
const SPEC_TEXTS: Record<string, string> = {
  'validation.invalid_name': 'Name is invalid.',
  'validation.invalid_last_name': 'Last name is invalid.',
  'validation.invalid_email': 'Email is invalid.',
  'validation.invalid_password': 'Password must be 6 characters long.',
  'validation.invalid_phone': 'Phone number is invalid.',
  'auth.invalidCredentials': 'Email or password is incorrect, please try again.',
  'signup.accountExists': 'You already have an account, please login.',
  'signup.reasonRecommendation': 'Recommendation',
  'signup.reasonFacebook': 'Facebook Ad',
  'signup.reasonInstagram': 'Instagram Ad',
  'signup.reasonOther': 'Other',
  'recovery.submit': 'Send Reset Link',
  'recovery.sent': "We've sent you a password reset email.",
  'recovery.notFound': 'We did not found any account with this email. Could your account be under a different email?',
  'recovery.failed': 'There was an error with your request, please try again later.',
  'errors.premium': 'This is a premium feature. Please, upgrade your account.',
  'errors.openAiPrefix': 'Open AI Error: ',
  'clipboard.failed': 'Unable to copy content to clipboard. Please copy manually.',
  'access.getAccess': 'Get Access Now',
  'access.returnHome': 'Return to Home',
  'access.avatarsTitle': 'Creating avatars is a paid feature',
  'pricing.empty': 'No products available.',
  'shell.unlimited': 'Unlimited',
  'shell.upgrade': 'Upgrade',
};

describe('spec texts', () => {
  const english = flatten(en as Json);
  const spanish = flatten(es as Json);

  it.each(Object.entries(SPEC_TEXTS))('%s is the spec text in English and translated in Spanish', (key, text) => {
    expect(english[key]).toBe(text);
    expect(spanish[key]?.trim()).toBeTruthy();
    expect(spanish[key]).not.toBe(text);
  });

  it("uses the spec's Spanish for the copied reset link", () => {
    expect(spanish['clipboard.linkCopied']).toBe('Enlace copiado al portapapeles.');
  });

  it('shows the same validation texts as the server (common/src/messages.ts)', () => {
    // Forms validate with the server's schemas (ui/form-rules.tsx): validation.<key> words message <key>.
    const asI18next = (text: string) => text.replace(/\{(\w+)\}/g, '{{$1}}');
    const shared = Object.keys(english)
      .filter((key) => key.startsWith('validation.'))
      .map((key) => key.slice('validation.'.length))
      .filter((key): key is keyof typeof serverMessages.en => Object.hasOwn(serverMessages.en, key));
    expect(shared).toEqual(expect.arrayContaining(['invalid_email', 'invalid_password', 'field_required', 'text_too_long', 'conversation_name_required']));
    for (const key of shared) {
      expect(english[`validation.${key}`]).toBe(asI18next(serverMessages.en[key]));
      expect(spanish[`validation.${key}`]).toBe(asI18next(serverMessages.es[key]));
    }
  });
});
