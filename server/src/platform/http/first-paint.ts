// The signed-out screens' first paint (issue 9 item 10: LCP ≤ 2.5 s on a slow phone). The web build's
// server bundle (web/dist-ssr/entry.js, from web/src/prerender/entry.tsx) draws the landing or sign-in
// screen a signed-out visitor would see at this URL; the page carries that markup in an inert overlay and
// links the screen's stylesheets, so it paints once HTML and CSS are here instead of after the scripts.
// The app removes the overlay when it has rendered the screen itself (web/src/prerender/remove-first-paint.ts);
// index.html's first script hides it for a visitor with a session or another saved language.
// Renders are cached per screen, language and configuration (a few keys), never per visitor.
// A signed-in visitor's open conversation is drawn too (its records read by features/messages/
// conversation-picture-http.ts): that render is the visitor's own, cached by what it shows (a digest of the
// records, language and configuration) so a reload of an unchanged conversation costs no render.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ConfigEntry } from '@pluma/common/appconfig';
import type { Lang } from '@pluma/common/constants';
import { LRUCache } from 'lru-cache';

interface FirstPaintScreen {
  screen: 'login' | 'signup' | 'recovery' | 'landing';
  url: string;
  lang: Lang;
}

/** A signed-in visitor's open conversation, as the API answers its records (entry.tsx ConversationPicture). */
export interface ConversationPicture {
  url: string;
  lang: Lang;
  user: { lang: Lang };
  conversation: object;
  page: object;
}

/** The server bundle's exports (web/src/prerender/entry.tsx). */
interface FirstPaintModule {
  SCREEN_MODULES: Record<FirstPaintScreen['screen'], string>;
  SIGNED_IN_MODULES: readonly string[];
  firstPaintScreen(url: string, lang: Lang, entries: readonly ConfigEntry[]): FirstPaintScreen | null;
  renderFirstPaint(screen: FirstPaintScreen, entries: ConfigEntry[]): Promise<string>;
  renderConversationFirstPaint(picture: ConversationPicture, entries: ConfigEntry[]): Promise<string>;
}

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface FirstPaint {
  /** The language its markup is in. */
  lang: Lang;
  /** The markup for the overlay. */
  html: string;
  /** Stylesheets (URLs) the screen needs beyond those index.html links already. */
  stylesheets: string[];
  /** A signed-in screen: the app removes it when that screen has its content, not at its first render. */
  signedIn?: boolean;
}

export interface FirstPaintRenderer {
  /** The signed-out screen a visitor would see at `url`, or null. */
  signedOut(url: string, acceptLanguage: string | undefined, entries: ConfigEntry[]): Promise<FirstPaint | null>;
  /** A signed-in visitor's open conversation. */
  conversation(picture: ConversationPicture, entries: ConfigEntry[]): Promise<FirstPaint | null>;
}

/** The visitor's language as the app picks it without a saved one: the first of Accept-Language's en or es. */
export function acceptedLang(header: string | undefined): Lang {
  for (const part of String(header ?? '').split(',')) {
    const base = part.split(';')[0]?.trim().toLowerCase().split('-')[0];
    if (base === 'en' || base === 'es') return base;
  }
  return 'en';
}

/** CSS files (URLs) a manifest entry loads with its static imports, minus those `except` loads. */
export function stylesheetsOf(manifest: Manifest, key: string, except = new Set<string>()): string[] {
  const found = new Set<string>();
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const chunk = manifest[name];
    if (!chunk) return;
    for (const css of chunk.css ?? []) if (!except.has(css)) found.add(css);
    for (const next of chunk.imports ?? []) visit(next);
  };
  visit(key);
  return [...found].map((file) => `/${file}`);
}

const RENDERS_KEPT = 64;
/** Signed-in pictures kept (each ~40 KB of markup): their own cache, so they never push out the signed-out screens. */
const CONVERSATION_RENDERS_KEPT = 100;

/**
 * The renderer for a web build at `distDir` (web/dist), or null when its server bundle or manifest is
 * missing (`npm run dev`, an older build): the page is then served without a first paint.
 */
export function firstPaintRenderer(distDir: string, log: { warn(obj: object, msg: string): void }): FirstPaintRenderer | null {
  const bundle = path.join(distDir, '..', 'dist-ssr', 'entry.js');
  const manifestFile = path.join(distDir, '.vite', 'manifest.json');
  if (!existsSync(bundle) || !existsSync(manifestFile)) return null;
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  const linked = new Set(stylesheetsOf(manifest, 'index.html').map((url) => url.slice(1)));
  let loaded: Promise<FirstPaintModule> | null = null;
  const load = () => (loaded ??= import(pathToFileURL(bundle).href) as Promise<FirstPaintModule>);
  const screens = new LRUCache<string, Promise<FirstPaint | null>>({ max: RENDERS_KEPT });
  const conversations = new LRUCache<string, Promise<FirstPaint | null>>({ max: CONVERSATION_RENDERS_KEPT });

  const cached = (cache: typeof screens, key: string, render: () => Promise<Omit<FirstPaint, 'stylesheets'>>, stylesheets: () => string[], context: object) => {
    let paint = cache.get(key);
    if (!paint) {
      paint = render().then(
        (drawn) => ({ ...drawn, stylesheets: stylesheets() }),
        (error: unknown) => {
          // A screen that cannot be drawn is served as before, without the picture.
          log.warn({ err: error, ...context }, 'first paint: render failed');
          cache.delete(key);
          return null;
        },
      );
      cache.set(key, paint);
    }
    return paint;
  };

  return {
    async signedOut(url, acceptLanguage, entries) {
      const module = await load();
      const screen = module.firstPaintScreen(url, acceptedLang(acceptLanguage), entries);
      if (!screen) return null;
      // Never per URL (a query string would make every request a new render): the screens draw the same
      // whatever the query or the path that led to them.
      const key = JSON.stringify([screen.screen, screen.lang, entries]);
      return cached(
        screens,
        key,
        async () => ({ lang: screen.lang, html: await module.renderFirstPaint(screen, entries) }),
        () => stylesheetsOf(manifest, module.SCREEN_MODULES[screen.screen], linked),
        { screen },
      );
    },
    async conversation(picture, entries) {
      const module = await load();
      const key = 'conversation:' + createHash('sha256').update(JSON.stringify([picture, entries])).digest('base64url');
      return cached(
        conversations,
        key,
        async () => ({ lang: picture.lang, html: await module.renderConversationFirstPaint(picture, entries), signedIn: true }),
        () => [...new Set(module.SIGNED_IN_MODULES.flatMap((name) => stylesheetsOf(manifest, name, linked)))],
        { screen: 'conversation' },
      );
    },
  };
}
