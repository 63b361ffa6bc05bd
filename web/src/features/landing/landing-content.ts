// Turns the public app configuration (GET /api/appconfig, spec part 1 §3) into what the landing shows.
// Pure, so the rules (defaults, Spanish variant, optional sections, safe links) are unit-tested.
import type { ConfigEntry } from '@pluma/common/appconfig';
import { CONFIG_KEYS, type ConfigKey } from '@pluma/common/config-keys';
import type { Lang } from '@pluma/common/constants';

export interface LandingItem {
  title: string;
  description: string;
}

export interface LandingContent {
  appName: string;
  /** Hero headline. */
  title: string;
  /** Hero description (the `tagline` key). */
  tagline: string;
  logoSrc: string | null;
  imageSrc: string | null;
  supportEmail: string | null;
  bgClassName: string;
  textClassName: string;
  spanishEnabled: boolean;
  features: LandingItem[];
  benefits: LandingItem[];
  offer: { name: string; link: string } | null;
  /** Where Get Started leads: the sign-up form, or the login when sign-up is switched off. */
  getStartedPath: string;
}

/**
 * Keys whose shipped default is English copy. The Spanish landing shows an unchanged default in Spanish
 * (from landing.es.json `defaults`); a value the operator changed is shown as written.
 */
export const TRANSLATABLE_DEFAULTS = [
  'title',
  'tagline',
  'feature1_title',
  'feature1_description',
  'feature2_title',
  'feature2_description',
  'feature3_title',
  'feature3_description',
] as const satisfies readonly ConfigKey[];
type TranslatableKey = (typeof TRANSLATABLE_DEFAULTS)[number];

/** Only http(s) or same-site paths may become a link or image source (config values are admin-typed). */
export function safeUrl(value: string): string | null {
  const url = value.trim();
  if (!url) return null;
  if (url.startsWith('/') && !url.startsWith('//')) return url;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

export function landingContent(
  entries: readonly ConfigEntry[] | undefined,
  lang: Lang,
  translatedDefault: (key: TranslatableKey) => string,
): LandingContent {
  const stored = new Map((entries ?? []).map((entry) => [entry.key, entry.value]));
  const value = (key: ConfigKey): string => (stored.get(key) ?? CONFIG_KEYS[key].default).trim();
  const copy = (key: TranslatableKey): string => {
    const text = value(key);
    return lang === 'es' && text === CONFIG_KEYS[key].default.trim() ? translatedDefault(key) : text;
  };
  const items = (kind: 'feature' | 'benefit'): LandingItem[] =>
    ([1, 2, 3] as const)
      .map((n) => ({
        title: kind === 'feature' ? copy(`feature${n}_title`) : value(`benefit${n}_title`),
        description: kind === 'feature' ? copy(`feature${n}_description`) : value(`benefit${n}_description`),
      }))
      .filter((item) => item.title !== '');

  const appName = value('app_name') || 'Pluma';
  const offerLink = safeUrl(value('high_ticket_offer_link'));
  const email = value('email');
  return {
    appName,
    title: copy('title') || appName,
    tagline: copy('tagline'),
    logoSrc: safeUrl(value('landing_logo_src')),
    imageSrc: safeUrl(value('landing_image_src')),
    supportEmail: /^[^\s@]+@[^\s@]+$/.test(email) ? email : null,
    bgClassName: value('landing_bg_className'),
    textClassName: value('landing_text_className'),
    spanishEnabled: value('spanish_enabled') === 'true',
    features: items('feature'),
    benefits: items('benefit'),
    offer: offerLink ? { name: value('high_ticket_offer_name'), link: offerLink } : null,
    // The landing exists only with landing_enabled, so the auth screens are under /auth (spec part 2 §2).
    getStartedPath: value('signup_enabled') === 'false' ? '/auth/login' : '/auth/signup',
  };
}
