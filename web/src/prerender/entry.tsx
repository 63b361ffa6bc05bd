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
import { APP_CONFIG_QUERY_KEY, readConfig } from '../platform/config/app-config';
import { buildTheme } from '../app/config/theme';
import { decideRoute } from '../app/session/routing';
import { SessionContext, type SessionValue } from '../platform/session/session-context';
import RecoveryPage from '../features/auth/RecoveryPage';
import LoginPage from '../features/auth/LoginPage';
import SignupPage from '../features/auth/SignupPage';
import LandingPage from '../features/landing/LandingPage';
import type { Conversation } from '@pluma/common/conversations';
import type { MessagePage } from '@pluma/common/messages-api';
import type { CurrentUser } from '@pluma/common/users';
import { Shell } from '../app/shell/Shell';
import { CURRENT_USER_QUERY_KEY } from '../platform/session/session-context';
import { conversationKey } from '../features/conversations/conversations-api';
import { ChatScreenView, type ChatScreenState } from '../features/chat/ConversationPage';
import { chatReducer, initialChatState } from '../features/chat/chat-state';

/** The screens drawn here, with the source module whose stylesheets the page must link (Vite's manifest key). */
export const SCREEN_MODULES = {
  login: 'src/features/auth/LoginPage.tsx',
  signup: 'src/features/auth/SignupPage.tsx',
  recovery: 'src/features/auth/RecoveryPage.tsx',
  landing: 'src/features/landing/LandingPage.tsx',
} as const;

export type Screen = keyof typeof SCREEN_MODULES;

/** The signed-in screens drawn here (an open conversation), with the modules whose stylesheets they need. */
export const SIGNED_IN_MODULES = ['src/app/shell/ShellApp.tsx', 'src/features/chat/ConversationPage.tsx', 'src/features/chat/MessageMarkdown.tsx'] as const;

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

/** What the server read for a signed-in visitor's open conversation, as the API answers it. */
export interface ConversationPicture {
  url: string;
  lang: Lang;
  user: CurrentUser;
  conversation: Conversation;
  page: MessagePage;
}

// The screen's actions in the picture: never called (it is inert and nothing hydrates).
const nothing = () => undefined;
const notSent = () => Promise.resolve(false);

/** The conversation screen as the app draws it once its newest messages are in (features/chat/ConversationPage.tsx). */
function conversationTree({ url, user, conversation, page }: ConversationPicture, client: QueryClient, config: ReturnType<typeof readConfig>): ReactNode {
  client.setQueryData(CURRENT_USER_QUERY_KEY, user);
  client.setQueryData(conversationKey(conversation.conversation_id), conversation);
  const chat: ChatScreenState = {
    state: chatReducer(initialChatState(conversation.conversation_id), { type: 'latestPage', page }),
    generating: false,
    loadError: null,
    retryLoad: nothing,
    loadingOlder: false,
    loadOlder: nothing,
    send: notSent,
    saveEdit: notSent,
    toggleFavorite: () => Promise.resolve(),
    answerAgain: () => Promise.resolve(),
  };
  const session: SessionValue = { status: 'signedIn', user, signIn: nothing, signOut: notOnTheServer, setUser: nothing, reloadUser: notOnTheServer };
  return (
    <QueryClientProvider client={client}>
      <MantineProvider theme={buildTheme(config.get('primary_color'), config.get('accent_color'))} defaultColorScheme="auto">
        <StaticRouter location={url}>
          <SessionContext.Provider value={session}>
            <Shell>
              <ChatScreenView conversation={conversation} chat={chat} draft={null} />
            </Shell>
          </SessionContext.Provider>
        </StaticRouter>
      </MantineProvider>
    </QueryClientProvider>
  );
}

// i18next's language is global: one render at a time (each waits only for code and copy already on disk).
let queue: Promise<unknown> = Promise.resolve();

/** The markup of the screen in its language with this configuration. */
export function renderFirstPaint({ screen, url, lang }: FirstPaintScreen, entries: ConfigEntry[]): Promise<string> {
  return renderInQueue(lang, (client) => {
    client.setQueryData(APP_CONFIG_QUERY_KEY, entries);
    const config = readConfig(entries);
    const Screen = screen === 'landing' ? () => <LandingPage lang={lang} /> : SCREENS[screen];
    return (
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
  });
}

/** The markup of a signed-in visitor's open conversation, in the user's language. */
export function renderConversationFirstPaint(picture: ConversationPicture, entries: ConfigEntry[]): Promise<string> {
  return renderInQueue(picture.lang, (client) => {
    client.setQueryData(APP_CONFIG_QUERY_KEY, entries);
    return conversationTree(picture, client, readConfig(entries));
  });
}

function renderInQueue(lang: Lang, tree: (client: QueryClient) => ReactNode): Promise<string> {
  const run = async () => {
    await i18n.changeLanguage(lang);
    // A lazy screen part (React.lazy) suspends the first time it is drawn, and the prerender then writes its
    // Suspense fallback with a script that swaps the content in, which never runs here (inert markup, the
    // page's CSP): the first draw of a kind of screen loads those parts, the second is whole.
    for (let attempt = 0; attempt < 2; attempt++) {
      const html = await renderOnce(tree);
      if (!html.includes('$RC(')) return html;
    }
    throw new Error('first paint: a part of the screen was still loading');
  };
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  return result;
}

async function renderOnce(tree: (client: QueryClient) => ReactNode): Promise<string> {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity, enabled: false } } });
  // An error inside a Suspense boundary would leave its fallback (a spinner) in the picture: none is drawn instead.
  const errors: unknown[] = [];
  // progressiveChunkSize: a large boundary's content would otherwise be written apart and swapped in by a script.
  const { prelude } = await prerenderToNodeStream(tree(client), { onError: (error) => void errors.push(error), progressiveChunkSize: Number.MAX_SAFE_INTEGER });
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk as Uint8Array));
  if (errors.length > 0) throw errors[0] instanceof Error ? errors[0] : new Error(String(errors[0]));
  // Nothing in the picture takes input (it is inert too): a field filled before the app arrives would
  // lose its text when the picture goes. Test ids stay the app's own (tests never drive the picture).
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/<(input|textarea)\b/g, '<$1 readonly')
    .replace(/ data-testid="[^"]*"/g, '');
}
