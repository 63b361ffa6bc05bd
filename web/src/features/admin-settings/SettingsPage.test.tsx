import { CONFIG_KEYS, type ConfigKey } from '@pluma/common/appconfig';
import { SETTINGS_UNLOCK_TIMEOUT_MS } from '@pluma/common/constants';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import type { AdminConfigEntry } from './settings-api';
import { SETTINGS_LAYOUT, SETTINGS_TABS } from './settings-fields';
import { changedEntries } from './settings-form';
import SettingsPage from './SettingsPage';

const OPENAI_KEY = 'sk-proj-the-full-secret-value-9xyz';
const MASKED_OPENAI = '••••••••9xyz';

function adminConfig(overrides: Partial<Record<ConfigKey, string>> = {}): AdminConfigEntry[] {
  return (Object.keys(CONFIG_KEYS) as ConfigKey[]).map((key) => {
    const def = CONFIG_KEYS[key];
    const value = overrides[key] ?? (key === 'openai_secret_key' ? MASKED_OPENAI : def.default);
    return { key, value, kind: def.kind, public: def.public && def.kind !== 'secret', masked: def.kind === 'secret' && value !== '' };
  });
}

function renderSettings(options: { role?: 'admin' | 'manager'; routes?: Parameters<typeof stubFetch>[0] } = {}) {
  const api = stubFetch({
    'GET /api/appconfig/admin': () => ({ body: adminConfig() }),
    'POST /api/appconfig/admin/reveal': () => ({ body: { key: 'openai_secret_key', value: OPENAI_KEY } }),
    'PUT /api/appconfig': () => ({ body: adminConfig({ app_name: 'Quill' }) }),
    'GET /api/admin/outbox': () => ({ body: { items: [] } }),
    ...options.routes,
  });
  const user = buildUser({ staff: { staff_id: 1, role: options.role ?? 'admin' } } as never);
  renderScreen(
    <Suspense fallback={null}>
      <SettingsPage />
    </Suspense>,
    { session: fakeSession(user), route: '/admin/settings' },
  );
  return api;
}

const openAdvanced = async () => fireEvent.click(await screen.findByRole('tab', { name: 'Advanced' }));
const openaiField = () => screen.getByTestId('setting-openai_secret_key') as HTMLInputElement;

async function unlockOpenAi() {
  await openAdvanced();
  fireEvent.click(screen.getByTestId('edit-openai_secret_key'));
  const dialog = await screen.findByRole('dialog', { name: 'Are you sure to edit this setting?' });
  expect(dialog).toHaveTextContent('could cause issues');
  fireEvent.click(within(dialog).getByRole('button', { name: 'Edit setting' }));
  await waitFor(() => expect(openaiField().value).toBe(OPENAI_KEY));
}

beforeEach(async () => {
  await setLanguage('en');
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('settings layout and save rules', () => {
  it('puts every configuration key on exactly one tab', () => {
    const placed = SETTINGS_TABS.flatMap((tab) => SETTINGS_LAYOUT[tab].flatMap((section) => section.keys));
    expect([...placed].sort()).toEqual(Object.keys(CONFIG_KEYS).sort());
  });

  it('sends only changed keys, and never a secret in its masked form', () => {
    const baseline = { app_name: 'Pluma', openai_secret_key: MASKED_OPENAI, stripe_private_key: '' };
    expect(changedEntries({ ...baseline }, baseline)).toEqual([]);
    expect(changedEntries({ ...baseline, app_name: 'Quill', openai_secret_key: '••••••••abcd' }, baseline)).toEqual([{ key: 'app_name', value: 'Quill' }]);
    expect(changedEntries({ ...baseline, stripe_private_key: 'sk_test_new' }, baseline)).toEqual([{ key: 'stripe_private_key', value: 'sk_test_new' }]);
  });
});

// The page renders dozens of Mantine fields: on a loaded machine a case can pass 15 s.
describe('/admin/settings', { timeout: 30_000 }, () => {
  it('shows a secret masked to its last 4 characters, and saves only what changed', async () => {
    const { calls } = renderSettings();
    const appName = (await screen.findByTestId('setting-app_name')) as HTMLInputElement;
    expect(appName.value).toBe('Pluma');
    fireEvent.change(appName, { target: { value: 'Quill' } });
    await openAdvanced();
    expect(openaiField().value).toBe(MASKED_OPENAI);
    expect(openaiField()).toHaveAttribute('readonly');
    fireEvent.click(screen.getByRole('switch', { name: 'Hashtags' }));
    fireEvent.click(screen.getByTestId('settings-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.body).toEqual([
      { key: 'app_name', value: 'Quill' },
      { key: 'hashtags_enabled', value: 'false' },
    ]);
    expect(JSON.stringify(put?.body)).not.toContain('•');
    expect(await screen.findByText('Settings saved.')).toBeInTheDocument();
  });

  it('unlocks a secret after the confirmation (fetching its full value) and locks it again after 10 s without input', async () => {
    const { calls } = renderSettings();
    await unlockOpenAi();
    expect(calls.filter((c) => c.url.endsWith('/appconfig/admin/reveal')).map((c) => c.body)).toEqual([{ key: 'openai_secret_key' }]);

    vi.useFakeTimers({ shouldAdvanceTime: false });
    // Typing restarts the wait.
    act(() => vi.advanceTimersByTime(SETTINGS_UNLOCK_TIMEOUT_MS - 1000));
    fireEvent.change(openaiField(), { target: { value: 'sk-proj-a-brand-new-key-1234' } });
    act(() => vi.advanceTimersByTime(SETTINGS_UNLOCK_TIMEOUT_MS - 1000));
    expect(openaiField().value).toBe('sk-proj-a-brand-new-key-1234');
    act(() => vi.advanceTimersByTime(1000));
    // Locked: only the last 4 characters of the new value show.
    expect(openaiField().value).toBe('••••••••1234');
    expect(openaiField()).toHaveAttribute('readonly');
    vi.useRealTimers();

    fireEvent.click(screen.getByTestId('settings-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual([{ key: 'openai_secret_key', value: 'sk-proj-a-brand-new-key-1234' }]);
  });

  it('does not send a revealed secret that was not changed', async () => {
    const { calls } = renderSettings();
    await unlockOpenAi();
    fireEvent.click(screen.getByTestId('settings-save'));
    expect(await screen.findByText('There are no changes to save.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('locks an unlocked secret again when the admin leaves its tab', async () => {
    renderSettings();
    await unlockOpenAi();
    fireEvent.click(screen.getByRole('tab', { name: 'Content' }));
    await openAdvanced();
    expect(openaiField().value).toBe('••••••••9xyz');
    expect(openaiField()).toHaveAttribute('readonly');
  });

  it('hides the Edit control of secrets from managers', async () => {
    renderSettings({ role: 'manager' });
    await openAdvanced();
    expect(openaiField().value).toBe(MASKED_OPENAI);
    expect(screen.queryByTestId('edit-openai_secret_key')).toBeNull();
  });

  it('refuses invalid JSON in firebaseConfig before calling the server', async () => {
    const { calls } = renderSettings();
    await openAdvanced();
    fireEvent.change(screen.getByTestId('setting-firebaseConfig'), { target: { value: '{"apiKey": ' } });
    fireEvent.click(screen.getByTestId('settings-save'));
    expect(await screen.findByText('This value is not valid.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it("tests the AI key in use (a masked value is not sent) and shows the provider's refusal", async () => {
    const { calls } = renderSettings({
      routes: {
        'POST /api/appconfig/admin/test': () => ({
          body: { ok: false, provider: 'openai', status: 401, code: 'invalid_api_key', message: 'Incorrect API key provided' },
        }),
      },
    });
    await openAdvanced();
    fireEvent.click(screen.getByTestId('test-openai_secret_key'));
    expect(await screen.findByTestId('key-test-result')).toHaveTextContent('The provider refused it: 401 · invalid_api_key · Incorrect API key provided');
    expect(calls.find((c) => c.url.endsWith('/admin/test'))?.body).toEqual({ key: 'openai_secret_key' });
  });

  it('uploads a logo as a public file and keeps its address', async () => {
    const { fetchMock, calls } = renderSettings();
    const uploads: FormData[] = [];
    // POST /api/files is multipart: answered here, everything else by the JSON stub.
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
      if (String(input).endsWith('/api/files') && init.body instanceof FormData) {
        uploads.push(init.body);
        const file = { file_id: 8, name: 'logo', type: 'png', size: 4, src: '/api/files/k3y.png', abilities: { read: true, replace: true, delete: true } };
        return new Response(JSON.stringify(file), { status: 201, headers: { 'Content-Type': 'application/json' } });
      }
      return fetchMock(input, init);
    });
    const images = await screen.findByTestId('section-images');
    const darkLogo = within(images).getByTestId('setting-dark_logo').closest('.mantine-Group-root') as HTMLElement;
    const input = darkLogo.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['png!'], 'logo.png', { type: 'image/png' })] } });
    await waitFor(() => expect(screen.getByTestId('setting-dark_logo')).toHaveValue('/api/files/k3y.png'));
    expect(uploads[0].get('public')).toBe('true');
    expect((uploads[0].get('file') as File).name).toBe('logo.png');
    fireEvent.click(screen.getByTestId('settings-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual([{ key: 'dark_logo', value: '/api/files/k3y.png' }]);
  });

  it('lists the outbox and opens a mail', async () => {
    renderSettings({
      routes: {
        'GET /api/admin/outbox': () => ({
          body: {
            items: [
              { mail_id: 3, to: 'ana@example.com', subject: 'Reset your password', text: 'Open https://pluma.test/reset?token=abc', kind: 'reset', status: 'pending', error: null, createdAt: '2026-11-02T10:00:00.000Z', sentAt: null },
            ],
          },
        }),
      },
    });
    fireEvent.click(await screen.findByRole('tab', { name: 'Outbox' }));
    const row = await screen.findByTestId('outbox-row');
    expect(row).toHaveTextContent('Reset your password');
    expect(row).toHaveTextContent('ana@example.com');
    fireEvent.click(within(row).getByRole('button', { name: 'Read' }));
    expect(await screen.findByRole('dialog', { name: 'Reset your password' })).toHaveTextContent('https://pluma.test/reset?token=abc');
  });

  it('lists the text messages (phone sign-in codes) under the mail', async () => {
    renderSettings({
      routes: {
        'GET /api/admin/outbox': () => ({ body: { items: [] } }),
        'GET /api/admin/sms-outbox': () => ({
          body: {
            items: [
              { sms_id: 7, to: '+525551234567', text: 'Your Pluma sign-in code is 482913.', kind: 'phone_sign_in', status: 'stored', provider: null, error: null, createdAt: '2026-11-02T10:00:00.000Z', sentAt: null },
              { sms_id: 6, to: '+525551234567', text: 'Your Pluma sign-in code is 111111.', kind: 'phone_sign_in', status: 'failed', provider: 'twilio', error: 'Authenticate', createdAt: '2026-11-02T09:00:00.000Z', sentAt: null },
            ],
          },
        }),
      },
    });
    fireEvent.click(await screen.findByRole('tab', { name: 'Outbox' }));
    const rows = await screen.findAllByTestId('sms-outbox-row');
    expect(rows[0]).toHaveTextContent('+525551234567');
    expect(rows[0]).toHaveTextContent('Your Pluma sign-in code is 482913.');
    expect(rows[1]).toHaveTextContent('Authenticate');
  });

  it('chooses the web search provider from a select, with the URL and key fields of the chosen one', async () => {
    const { calls } = renderSettings();
    await openAdvanced();
    const provider = screen.getByTestId('setting-web_search_provider') as HTMLInputElement;
    expect(provider.value).toBe('None (web search off)');
    // Off: no URL or key to fill in.
    expect(screen.queryByTestId('setting-web_search_url')).toBeNull();
    expect(screen.queryByTestId('edit-web_search_api_key')).toBeNull();
    fireEvent.click(provider);
    fireEvent.click(await screen.findByRole('option', { name: 'SearXNG (self-hosted)', hidden: true }));
    // SearXNG: its address, no key.
    expect(await screen.findByTestId('setting-web_search_url')).toBeInTheDocument();
    expect(screen.queryByTestId('edit-web_search_api_key')).toBeNull();
    fireEvent.change(screen.getByTestId('setting-web_search_url'), { target: { value: 'https://search.example.com' } });
    fireEvent.click(provider);
    fireEvent.click(await screen.findByRole('option', { name: 'Brave Search API', hidden: true }));
    // Brave: its key too.
    expect(await screen.findByTestId('edit-web_search_api_key')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('settings-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual([
      { key: 'web_search_provider', value: 'brave' },
      { key: 'web_search_url', value: 'https://search.example.com' },
    ]);

    await setLanguage('es');
    expect(await screen.findByText('Proveedor de búsqueda web')).toBeInTheDocument();
  });

  it('speaks Spanish', async () => {
    await setLanguage('es');
    renderSettings();
    fireEvent.click(await screen.findByRole('tab', { name: 'Avanzado' }));
    fireEvent.click(screen.getByTestId('edit-openai_secret_key'));
    expect(await screen.findByRole('dialog', { name: '¿Seguro que quieres editar este ajuste?' })).toBeInTheDocument();
  });
});
