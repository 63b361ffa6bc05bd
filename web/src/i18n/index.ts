// Interface language (spec part 1 §9): en or es, default en, kept in localStorage 'lang' and in the
// user's profile. Every visible string lives in en.json / es.json (same keys; a test enforces parity).
import { DEFAULT_LANG, LANGUAGES, type Lang } from '@pluma/common/constants';
import i18n, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { STORAGE_KEYS, safeStorage } from '../api/storage-keys';
import en from './en.json';
import es from './es.json';

export const isLang = (value: unknown): value is Lang => typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/** The language saved on this browser, if any. */
export function savedLanguage(): Lang | null {
  try {
    const value = safeStorage()?.getItem(STORAGE_KEYS.lang);
    return isLang(value) ? value : null;
  } catch {
    return null;
  }
}

/** The first of the browser's preferred languages we have (es-MX → es), if any. */
export function browserLanguage(nav: Pick<Navigator, 'language' | 'languages'> | undefined = typeof navigator === 'undefined' ? undefined : navigator): Lang | null {
  const preferred = nav?.languages?.length ? nav.languages : nav?.language ? [nav.language] : [];
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLang(base)) return base;
  }
  return null;
}

/** The language a visitor starts in: the one saved on this browser, else the browser's, else English. */
export function initialLanguage(): Lang {
  return savedLanguage() ?? browserLanguage() ?? DEFAULT_LANG;
}

/**
 * Other namespaces (e.g. 'landing' → landing.en.json) load on first use, in their own chunk, so the
 * sign-in screens do not carry the landing page's copy.
 */
const lazyNamespaces: BackendModule = {
  type: 'backend',
  callbackApi: true,
  init: () => undefined,
  read(language, namespace, callback) {
    import(`./${namespace}.${language}.json`).then(
      (module: { default: Record<string, unknown> }) => callback(null, module.default),
      (error: Error) => callback(error, false),
    );
  },
};

void i18n.use(lazyNamespaces).use(initReactI18next).init({
  resources: { en: { translation: en }, es: { translation: es } },
  partialBundledLanguages: true,
  ns: ['translation'],
  defaultNS: 'translation',
  lng: initialLanguage(),
  fallbackLng: DEFAULT_LANG,
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});
if (typeof document !== 'undefined') document.documentElement.lang = i18n.language;

export function currentLanguage(): Lang {
  return isLang(i18n.language) ? i18n.language : DEFAULT_LANG;
}

/** Switches the interface language and remembers it on this browser. */
export function applyLanguage(lang: Lang, options: { persist?: boolean } = {}) {
  if (options.persist !== false) {
    try {
      safeStorage()?.setItem(STORAGE_KEYS.lang, lang);
    } catch {
      // The language still applies to this page.
    }
  }
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
  if (i18n.language !== lang) void i18n.changeLanguage(lang);
}

export { i18n };
