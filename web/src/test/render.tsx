// Renders a screen with the app's providers: Mantine, TanStack Query (configuration preloaded), router
// and a session whose state the test chooses.
import { MantineProvider } from '@mantine/core';
import type { ConfigEntry } from '@pluma/common/appconfig';
import type { CurrentUser } from '@pluma/common/users';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { vi } from 'vitest';
import { APP_CONFIG_QUERY_KEY } from '../platform/config/app-config';
import { createQueryClient } from '../app/query-client';
import { SessionContext, type SessionValue } from '../platform/session/session-context';
import { i18n } from '../i18n';
import { AppNotifications } from '../ui/AppNotifications';

export const DEFAULT_CONFIG: Record<string, string> = {
  app_name: 'Pluma',
  title: 'Pluma — write 10× faster with AI',
  tagline: 'Your AI writing studio.',
  email: 'support@example.com',
  landing_enabled: 'true',
  spanish_enabled: 'true',
  signup_enabled: 'true',
  primary_color: '#6d28d9',
  accent_color: '#f59e0b',
};

export function buildUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    user_id: 7,
    name: 'Ana',
    last_name: 'García',
    email: 'ana@example.com',
    phone: null,
    company: null,
    lang: 'en',
    dark_mode: false,
    birthday: null,
    file_id: null,
    picture: null,
    signup_reason: null,
    instagram: null,
    has_access: true,
    available_words: 1200,
    staff: null,
    purchase: null,
    default_organization: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    two_factor: { enabled: false, required: false, verified: false },
    ...overrides,
  };
}

export function fakeSession(user: CurrentUser | null, overrides: Partial<SessionValue> = {}): SessionValue {
  const base = user ? { status: 'signedIn' as const, user } : { status: 'signedOut' as const, user: null };
  return {
    ...base,
    signIn: vi.fn(),
    signOut: vi.fn(async () => undefined),
    setUser: vi.fn(),
    reloadUser: vi.fn(async () => undefined),
    ...overrides,
  } as SessionValue;
}

/** Shows the current path so tests can assert navigation. */
function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname + location.search}</div>;
}

interface RenderOptions {
  route?: string;
  /** Route pattern the screen is mounted at (default: any path). */
  path?: string;
  config?: Record<string, string>;
  session?: SessionValue;
}

export function renderScreen(ui: ReactElement, options: RenderOptions = {}) {
  const queryClient = createQueryClient();
  const config = { ...DEFAULT_CONFIG, ...options.config };
  queryClient.setQueryData<ConfigEntry[]>(
    APP_CONFIG_QUERY_KEY,
    Object.entries(config).map(([key, value]) => ({ key, value })),
  );
  const session = options.session ?? fakeSession(null);
  const result = render(
    <QueryClientProvider client={queryClient}>
      <MantineProvider>
        <MemoryRouter initialEntries={[options.route ?? '/']}>
          <SessionContext value={session}>
            <AppNotifications />
            <Routes>
              <Route path={options.path ?? '*'} element={ui} />
              <Route path="*" element={null} />
            </Routes>
            <LocationProbe />
          </SessionContext>
        </MemoryRouter>
      </MantineProvider>
    </QueryClientProvider>,
  );
  return { ...result, queryClient, session };
}

/** A fetch stub answering by "METHOD /path" (query ignored). Unlisted calls answer 404. */
export function stubFetch(routes: Record<string, (init: RequestInit, url: string) => { status?: number; body?: unknown }>) {
  const calls: { method: string; url: string; body: unknown; headers: Record<string, string> }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const method = (init.method ?? 'GET').toUpperCase();
    const path = url.split('?')[0];
    calls.push({ method, url, body: init.body ? JSON.parse(String(init.body)) : undefined, headers: (init.headers ?? {}) as Record<string, string> });
    const handler = routes[`${method} ${path}`];
    const answer = handler ? handler(init, url) : { status: 404, body: { error: 'not_found', message: 'Not found.' } };
    const status = answer.status ?? 200;
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, calls };
}

export async function setLanguage(lang: 'en' | 'es') {
  await i18n.changeLanguage(lang);
}

/**
 * Gives URL object URLs for one test (jsdom has none): `create` names each blob's URL. A subclass is stubbed,
 * so the real URL is back after the test (vi.unstubAllGlobals in setup.ts).
 */
export function stubObjectUrls(create: (blob: Blob) => string = () => 'blob:test') {
  vi.stubGlobal('URL', Object.assign(class extends URL {}, { createObjectURL: vi.fn(create), revokeObjectURL: vi.fn() }));
}
