// Server-side first paint of the signed-out screens (`/` landing, `/login`, `/signup`, `/recovery`): the
// server (server/src/platform/http/first-paint.ts) renders this module's markup into the page, so a visitor
// sees the screen as soon as the HTML and its stylesheets arrive instead of after every script has run
// (issue 9 item 10: LCP on a slow phone). It is a picture, not the app: the page shows it in an inert
// overlay (index.html, #prerender) until the app has rendered the same screen beneath it
// (./remove-first-paint.ts), so nothing here must match the browser's render exactly and nothing hydrates.
// Built by `vite build --ssr` into web/dist-ssr (web/package.json); nothing of it reaches the browser.
import type { ConfigEntry } from '@pluma/common/appconfig';
import type { Lang } from '@pluma/common/constants';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18n from 'i18next';
import type { ComponentType, ReactNode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import '../i18n';
import { registry } from '../app/app-registry';
import { APP_CONFIG_QUERY_KEY, readConfig } from '../app/config/app-config';
import { buildTheme } from '../app/config/theme';
import { decideRoute } from '../app/session/routing';
import { SessionContext, type SessionValue } from '../app/session/session-context';
import RecoveryPage from '../features/auth/RecoveryPage';
import LoginPage from '../features/auth/LoginPage';
import SignupPage from '../features/auth/SignupPage';
import LandingPage from '../features/landing/LandingPage';

/** The screens drawn here, with the source module whose stylesheets the page must link (Vite's manifest key). */
export const SCREEN_MODULES = {
  login: 'src/features/auth/LoginPage.tsx',
  signup: 'src/features/auth/SignupPage.tsx',
  recovery: 'src/features/auth/RecoveryPage.tsx',
  landing: 'src/features/landing/LandingPage.tsx',
} as const;

export type Screen = keyof typeof SCREEN_MODULES;

export interface FirstPaintScreen {
  screen: Screen;
  /** The path the app ends up showing it at (after its own redirects, e.g. `/login` → `/auth/login`). */
  url: string;
  /** The landing's language (the path decides it: `/latam` is Spanish); the others use the visitor's. */
  lang: Lang;
}

/**
 * What a signed-out visitor in `lang` sees at `url` (path and query), when it is one of the screens drawn here
 * (the app's own routing decision, app/session/routing.ts); null for anything else.
 */
export function firstPaintScreen(url: string, lang: Lang, entries: readonly ConfigEntry[]): FirstPaintScreen | null {
  const config = readConfig(entries);
  // The app's redirects are followed as it follows them (a couple at most).
  for (let hops = 0, next = url; hops < 3; hops++) {
    const [pathname = '/', search = ''] = next.split(/(?=\?)/);
    const decision = decideRoute({
      pathname,
      search,
      status: 'signedOut',
      landingEnabled: config.on('landing_enabled'),
      spanishEnabled: config.on('spanish_enabled'),
      signupEnabled: config.on('signup_enabled'),
      browserLanguage: lang,
      savedLanguage: null,
      access: registry.access,
    });
    if (decision.kind === 'landing') return { screen: 'landing', url: pathname, lang: decision.lang };
    if (decision.kind === 'auth') return { screen: decision.screen, url: pathname, lang };
    if (decision.kind !== 'redirect' || !decision.to.startsWith('/')) return null;
    next = decision.to;
  }
  return null;
}

const SCREENS: Record<Exclude<Screen, 'landing'>, ComponentType> = { login: LoginPage, signup: SignupPage, recovery: RecoveryPage };

// What the screens read of the session: a signed-out visitor. Nothing here is ever called (no effect or
// event handler runs on the server).
const notOnTheServer = () => Promise.reject(new Error('not available in the first paint'));
const SIGNED_OUT: SessionValue = { status: 'signedOut', user: null, signIn: () => undefined, signOut: notOnTheServer, setUser: () => undefined, reloadUser: notOnTheServer };

// i18next's language is global: one render at a time (each waits only for code and copy already on disk).
let queue: Promise<unknown> = Promise.resolve();

/** The markup of the screen in its language with this configuration. */
export function renderFirstPaint({ screen, url, lang }: FirstPaintScreen, entries: ConfigEntry[]): Promise<string> {
  const run = async () => {
    await i18n.changeLanguage(lang);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity, enabled: false } } });
    client.setQueryData(APP_CONFIG_QUERY_KEY, entries);
    const config = readConfig(entries);
    const Screen = screen === 'landing' ? () => <LandingPage lang={lang} /> : SCREENS[screen];
    const tree: ReactNode = (
      <QueryClientProvider client={client}>
        <MantineProvider theme={buildTheme(config.get('primary_color'), config.get('accent_color'))} defaultColorScheme="auto">
          <StaticRouter location={url}>
            <SessionContext.Provider value={SIGNED_OUT}>
              <Screen />
            </SessionContext.Provider>
          </StaticRouter>
        </MantineProvider>
      </QueryClientProvider>
    );
    const { prelude } = await prerenderToNodeStream(tree);
    const chunks: Buffer[] = [];
    for await (const chunk of prelude) chunks.push(Buffer.from(chunk as Uint8Array));
    // Nothing in the picture takes input (it is inert too): a field filled before the app arrives would
    // lose its text when the picture goes. Test ids stay the app's own (tests never drive the picture).
    return Buffer.concat(chunks)
      .toString('utf8')
      .replace(/<(input|textarea)\b/g, '<$1 readonly')
      .replace(/ data-testid="[^"]*"/g, '');
  };
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  return result;
}
