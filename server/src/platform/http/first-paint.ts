// The signed-out screens' first paint (issue 9 item 10: LCP ≤ 2.5 s on a slow phone). The web build's
// server bundle (web/dist-ssr/entry.js, from web/src/prerender/entry.tsx) draws the landing or sign-in
// screen a signed-out visitor would see at this URL; the page carries that markup in an inert overlay and
// links the screen's stylesheets, so it paints once HTML and CSS are here instead of after the scripts.
// The app removes the overlay when it has rendered the screen itself (web/src/prerender/remove-first-paint.ts);
// index.html's first script hides it for a visitor with a session or another saved language.
// Renders are cached per screen, language and configuration (a few keys), never per visitor.
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

/** The server bundle's exports (web/src/prerender/entry.tsx). */
interface FirstPaintModule {
  SCREEN_MODULES: Record<FirstPaintScreen['screen'], string>;
  firstPaintScreen(url: string, lang: Lang, entries: readonly ConfigEntry[]): FirstPaintScreen | null;
  renderFirstPaint(screen: FirstPaintScreen, entries: ConfigEntry[]): Promise<string>;
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
}

export type FirstPaintRenderer = (url: string, acceptLanguage: string | undefined, entries: ConfigEntry[]) => Promise<FirstPaint | null>;

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
  const cache = new LRUCache<string, Promise<FirstPaint | null>>({ max: RENDERS_KEPT });

  return async (url, acceptLanguage, entries) => {
    const module = await load();
    const screen = module.firstPaintScreen(url, acceptedLang(acceptLanguage), entries);
    if (!screen) return null;
    // Never per URL (a query string would make every request a new render): the screens draw the same
    // whatever the query or the path that led to them.
    const key = JSON.stringify([screen.screen, screen.lang, entries]);
    let render = cache.get(key);
    if (!render) {
      render = module.renderFirstPaint(screen, entries).then(
        (html) => ({ lang: screen.lang, html, stylesheets: stylesheetsOf(manifest, module.SCREEN_MODULES[screen.screen], linked) }),
        (error: unknown) => {
          // A screen that cannot be drawn is served as before, without the picture.
          log.warn({ err: error, screen }, 'first paint: render failed');
          cache.delete(key);
          return null;
        },
      );
      cache.set(key, render);
    }
    return render;
  };
}
