// The chat widget generator (spec part 2 §2, §5, §8, §9; issue 15 item 3) in English and Spanish against a
// stubbed API: the tab, Personal only, the form's checks in the spec's order, generating (JSON or multipart
// with the image) and the snippet (escaped, no user id, hidden again on any change, copied or not), the
// list's actions (turn off, rotate after confirming, delete after confirming, edit), and the conversations page.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { organizationStore } from '../../api/organization';
import { i18n } from '../../i18n';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import { widgetsFeature } from './feature';
import type { Widget, WidgetSessionDetail, WidgetSessionList } from '@pluma/common/widgets';
import WidgetConversationsPage from './WidgetConversationsPage';
import WidgetGeneratorPage from './WidgetGeneratorPage';

const KEY = 'pw_abcdefghijklmnopqrstuvwxyz012345';
const widget = (overrides: Partial<Widget> = {}): Widget => ({
  widget_id: 9,
  avatar_id: 3,
  avatar_name: 'Copywriter',
  name: 'Shop helper',
  accent_color: '#ff0000',
  image_url: null,
  allowed_origins: ['https://shop.example.com'],
  enabled: true,
  public_key: KEY,
  words_used: 1200,
  sessions_count: 2,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  abilities: { update: true, delete: true },
  ...overrides,
});
const avatars = { avatars: [{ avatar_id: 3, name: 'Copywriter' }, { avatar_id: 4, name: 'Support' }], total: 2 };

const show = (route = '/chat-widget-generator', path = '/chat-widget-generator/:widgetId?') =>
  renderScreen(
    <Suspense fallback={null}>
      <WidgetGeneratorPage />
    </Suspense>,
    { session: fakeSession(buildUser()), route, path },
  );

/** stubFetch reads JSON bodies; a multipart save is recorded here first. */
function withForms(stub: ReturnType<typeof stubFetch>) {
  const forms: { method: string; widget: unknown; image: File | null }[] = [];
  const inner = stub.fetchMock.getMockImplementation()!;
  stub.fetchMock.mockImplementation(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    if (init.body instanceof FormData) {
      forms.push({ method: String(init.method), widget: JSON.parse(String(init.body.get('widget'))), image: init.body.get('image') as File | null });
      return inner(input, { ...init, body: undefined });
    }
    return inner(input, init);
  });
  return forms;
}

async function chooseAvatar(name: string) {
  const select = screen.getByTestId('widget-avatar');
  await waitFor(() => expect(select).not.toBeDisabled());
  fireEvent.click(select);
  fireEvent.click(await screen.findByRole('option', { name, hidden: true }));
}
const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });
const generate = () => fireEvent.click(screen.getByTestId('widget-generate'));

beforeEach(() => organizationStore.set(null));
afterEach(async () => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  organizationStore.set(null);
  await i18n.changeLanguage('en');
});

describe('chat widget tab', () => {
  it('is switched by chatwidget_enabled, hidden in organizations, and leads to /chat-widget-generator', () => {
    expect(widgetsFeature.tabs?.[0]).toMatchObject({ to: '/chat-widget-generator', configKey: 'chatwidget_enabled', hiddenInOrganization: true, labelKey: 'breadcrumbs.chat-widget-generator' });
    expect(widgetsFeature.routes?.map((r) => r.path)).toEqual(['/chat-widget-generator', '/chat-widget-generator/:widgetId', '/chat-widget-generator/:widgetId/conversations']);
  });

  it('inside an organization only says it is for Personal, and calls nothing', async () => {
    organizationStore.set({ organization_id: 5, name: 'Acme' });
    const { calls } = stubFetch({});
    show();
    expect(await screen.findByTestId('widgets-not-in-organization')).toHaveTextContent('only available in your personal space');
    expect(screen.queryByTestId('widget-form')).toBeNull();
    expect(calls).toHaveLength(0);
  });
});

describe('the generator form', () => {
  it('checks the avatar first, then the name, then the colour and the websites, before calling anything', async () => {
    const { calls } = stubFetch({ 'GET /api/widgets': () => ({ body: { widgets: [] } }), 'GET /api/avatars': () => ({ body: avatars }) });
    show();
    expect(await screen.findByTestId('widgets-empty')).toHaveTextContent('You have no widgets yet');
    expect(screen.getByTestId('widget-accent')).toHaveValue('#ff0000');
    expect(screen.getByTestId('widget-accent-picker')).toHaveValue('#ff0000');

    generate();
    expect(await screen.findByTestId('app-error')).toHaveTextContent('Please select an avatar');
    expect(screen.getByTestId('widget-form')).toHaveTextContent('Please select an avatar');
    expect(screen.getByTestId('widget-form')).not.toHaveTextContent('Please type in a name for your Widget');

    await chooseAvatar('Copywriter');
    generate();
    await waitFor(() => expect(screen.getByTestId('widget-name')).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByTestId('widget-form')).toHaveTextContent('Please type in a name for your Widget');
    expect(screen.getByTestId('widget-form')).not.toHaveTextContent('Please select an avatar');

    type('widget-name', 'Shop helper');
    type('widget-accent', 'red');
    generate();
    expect(await screen.findByText('Please type a colour such as #ff0000', { selector: '.mantine-InputWrapper-error' })).toBeInTheDocument();

    type('widget-accent', '#0a0');
    type('widget-origins', 'https://shop.example.com\nshop.example.com/page');
    generate();
    expect(await screen.findByText('Line 2: “shop.example.com/page” is not a website such as https://shop.example.com', { selector: '.mantine-InputWrapper-error' })).toBeInTheDocument();
    expect(calls.filter((c) => c.method !== 'GET')).toHaveLength(0);
  });

  it('generates: POST /api/widgets, “{name} Widget Generated”, the escaped snippet without the user id, copied; any change hides it', async () => {
    const hostile = `Shop "<b>"`;
    const created = widget({ name: hostile, accent_color: '#00aa00', allowed_origins: ['https://shop.example.com', 'http://localhost:8080'] });
    const { calls } = stubFetch({
      'GET /api/widgets': () => ({ body: { widgets: [] } }),
      'GET /api/avatars': () => ({ body: avatars }),
      'POST /api/widgets': () => ({ status: 201, body: created }),
    });
    show();
    await chooseAvatar('Copywriter');
    type('widget-name', hostile);
    type('widget-accent', '#0a0');
    type('widget-origins', 'https://Shop.example.com/\n\nhttp://localhost:8080');
    generate();
    expect(await screen.findByText(`${hostile} Widget Generated`)).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ avatar_id: 3, name: hostile, accent_color: '#00aa00', allowed_origins: ['https://shop.example.com', 'http://localhost:8080'] });

    const snippet = screen.getByTestId('widget-snippet').textContent!;
    expect(snippet).toContain(`data-key="${KEY}"`);
    expect(snippet).toContain('data-accent="00aa00"');
    expect(snippet).toContain('data-name="Shop &quot;&lt;b&gt;&quot;"');
    expect(snippet).toContain(`${window.location.origin}/widget/pluma-widget.js`);
    expect(snippet).not.toMatch(/uid|user|data-avatar/);
    // The widget is listed at once.
    expect(within(screen.getByTestId('widgets-list')).getByTestId('widget-card')).toHaveTextContent(hostile);

    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    fireEvent.click(screen.getByTestId('widget-copy'));
    expect(await screen.findByText('Avatar widget code copied to clipboard!')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(snippet);

    writeText.mockRejectedValueOnce(new Error('denied'));
    fireEvent.click(screen.getByTestId('widget-copy'));
    expect(await screen.findByText('Unable to copy content to clipboard. Please copy manually.')).toBeInTheDocument();

    type('widget-name', 'Shop helper 2');
    expect(screen.queryByTestId('widget-snippet')).toBeNull();
  });

  it('hides the snippet when the colour picker, the websites or the avatar change too', async () => {
    stubFetch({
      'GET /api/widgets': () => ({ body: { widgets: [] } }),
      'GET /api/avatars': () => ({ body: avatars }),
      'POST /api/widgets': () => ({ status: 201, body: widget() }),
    });
    show();
    const again = async () => {
      generate();
      expect(await screen.findByTestId('widget-snippet')).toBeInTheDocument();
    };
    await chooseAvatar('Copywriter');
    type('widget-name', 'Shop helper');
    type('widget-origins', 'https://shop.example.com');
    await again();
    fireEvent.input(screen.getByTestId('widget-accent-picker'), { target: { value: '#123456' } });
    expect(screen.queryByTestId('widget-snippet')).toBeNull();
    expect(screen.getByTestId('widget-accent')).toHaveValue('#123456');
    await again();
    type('widget-origins', 'https://a.example.com');
    expect(screen.queryByTestId('widget-snippet')).toBeNull();
    await again();
    await chooseAvatar('Support');
    expect(screen.queryByTestId('widget-snippet')).toBeNull();
  });

  it('with no allowed website, Generate warns that the widget answers nowhere; adding one clears it and saves at once (issue 30 item 4)', async () => {
    const { calls } = stubFetch({
      'GET /api/widgets': () => ({ body: { widgets: [] } }),
      'GET /api/avatars': () => ({ body: avatars }),
      'POST /api/widgets': () => ({ status: 201, body: widget() }),
    });
    show();
    await chooseAvatar('Copywriter');
    type('widget-name', 'Shop helper');
    type('widget-origins', '  \n ');
    generate();
    const warning = await screen.findByTestId('widget-nowhere-warning');
    expect(warning).toHaveAttribute('role', 'alert');
    expect(warning).toHaveTextContent('With no allowed website, the widget does not answer on any page.');
    await waitFor(() => expect(screen.getByTestId('widget-origins')).toHaveFocus());
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    type('widget-origins', 'https://shop.example.com');
    expect(screen.queryByTestId('widget-nowhere-warning')).toBeNull();
    generate();
    expect(await screen.findByText('Shop helper Widget Generated')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ avatar_id: 3, name: 'Shop helper', accent_color: '#ff0000', allowed_origins: ['https://shop.example.com'] }]);
  });

  it('sends the button image as a multipart form (widget JSON, then the image) and previews it', async () => {
    const stub = stubFetch({
      'GET /api/widgets': () => ({ body: { widgets: [] } }),
      'GET /api/avatars': () => ({ body: avatars }),
      'POST /api/widgets': () => ({ status: 201, body: widget({ image_url: 'https://app.example.com/api/files/1.png' }) }),
    });
    const forms = withForms(stub);
    show();
    await chooseAvatar('Copywriter');
    type('widget-name', 'Shop helper');
    const image = new File(['png'], 'button.png', { type: 'image/png' });
    const input = screen.getByTestId('widget-form').querySelector('input[type="file"]')!;
    fireEvent.change(input, { target: { files: [image] } });
    expect(await screen.findByTestId('widget-image-preview')).toHaveAttribute('src', 'data:image/png;base64,cG5n');
    generate();
    // No website: Generate first warns that the widget would answer nowhere; nothing is sent yet.
    expect(await screen.findByTestId('widget-nowhere-warning')).toHaveTextContent('This widget will answer nowhere yet');
    expect(forms).toEqual([]);
    fireEvent.click(screen.getByTestId('widget-generate-anyway'));
    expect(await screen.findByText('Shop helper Widget Generated')).toBeInTheDocument();
    expect(forms).toEqual([{ method: 'POST', widget: { avatar_id: 3, name: 'Shop helper', accent_color: '#ff0000', allowed_origins: [] }, image: expect.any(File) }]);
    expect(forms[0].image?.name).toBe('button.png');
    expect(screen.getByTestId('widget-snippet')).toHaveTextContent('data-image="https://app.example.com/api/files/1.png"');
  });

  it('searches the user’s avatars on the server as they type (the largest page), keeping the chosen one', async () => {
    const queryOf = (url: string) => new URL(url, 'http://x').searchParams;
    const { calls } = stubFetch({
      'GET /api/widgets': () => ({ body: { widgets: [] } }),
      'GET /api/avatars': (_, url) => {
        const query = queryOf(url).get('query');
        const all = [...avatars.avatars, { avatar_id: 40, name: 'Support Spain' }];
        const found = query ? all.filter((a) => a.name.includes(query)) : avatars.avatars;
        return { body: { avatars: found, total: found.length } };
      },
    });
    show();
    await screen.findByTestId('widgets-empty');
    await chooseAvatar('Copywriter');
    const select = screen.getByTestId('widget-avatar');
    // Typed into the focused box (Mantine treats a change to an unfocused one as autofill).
    select.focus();
    fireEvent.change(select, { target: { value: 'Spain' } });
    expect(select).toHaveValue('Spain');
    await waitFor(() => expect(calls.some((c) => c.url.startsWith('/api/avatars') && queryOf(c.url).get('query') === 'Spain')).toBe(true), { timeout: 3000 });
    expect(calls.filter((c) => c.url.startsWith('/api/avatars')).every((c) => queryOf(c.url).get('limit') === '100')).toBe(true);
    fireEvent.click(await screen.findByRole('option', { name: 'Support Spain', hidden: true }));
    await waitFor(() => expect(select).toHaveValue('Support Spain'));
  });

  it('shows the server’s word on a field it refused', async () => {
    stubFetch({
      'GET /api/widgets': () => ({ body: { widgets: [] } }),
      'GET /api/avatars': () => ({ body: avatars }),
      'POST /api/widgets': () => ({ status: 400, body: { error: 'validation', message: 'Bad', details: { 'allowed_origins.0': 'This website is not accepted.' } } }),
    });
    show();
    await chooseAvatar('Copywriter');
    type('widget-name', 'Shop helper');
    type('widget-origins', 'https://shop.example.com');
    generate();
    expect(await screen.findByText('This website is not accepted.')).toBeInTheDocument();
    expect(screen.getByTestId('widget-origins')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByTestId('widget-snippet')).toBeNull();
  });
});

describe('your widgets', () => {
  it('lists name, avatar, accent, websites and usage; turns one off with PUT enabled', async () => {
    const { calls } = stubFetch({
      'GET /api/widgets': () => ({ body: { widgets: [widget(), widget({ widget_id: 10, name: 'Nowhere', allowed_origins: [], sessions_count: 1, words_used: 0 })] } }),
      'GET /api/avatars': () => ({ body: avatars }),
      'PUT /api/widgets/9': () => ({ body: widget({ enabled: false }) }),
    });
    show();
    const [first, second] = await screen.findAllByTestId('widget-card');
    expect(first).toHaveTextContent('Shop helper');
    expect(first).toHaveTextContent('Avatar: Copywriter');
    expect(within(first).getByRole('img', { name: 'Accent colour #ff0000' })).toBeInTheDocument();
    expect(within(first).getByTestId('widget-origins-list')).toHaveTextContent('https://shop.example.com');
    expect(within(first).getByTestId('widget-usage')).toHaveTextContent('1,200 words used · 2 conversations');
    expect(within(second).getByTestId('widget-no-origins')).toHaveTextContent('the widget answers nowhere');
    expect(within(second).getByTestId('widget-nowhere-badge')).toHaveTextContent('Answers nowhere yet');
    expect(within(first).queryByTestId('widget-nowhere-badge')).toBeNull();
    expect(within(second).getByTestId('widget-usage')).toHaveTextContent('0 words used · 1 conversation');
    expect(within(first).getByRole('link', { name: 'Conversations of Shop helper' })).toHaveAttribute('href', '/chat-widget-generator/9/conversations');

    const toggle = within(first).getByRole('switch', { name: 'Shop helper is on' });
    expect(toggle).toBeChecked();
    fireEvent.click(toggle);
    expect(await screen.findByText('Shop helper is off')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ enabled: false });
    await waitFor(() => expect(toggle).not.toBeChecked());
  });

  it('rotates the key only after the warning is confirmed, then shows the new code', async () => {
    const rotated = widget({ public_key: 'pw_NEWKEYnewkeyNEWKEYnewkeyNEWKEY12' });
    const { calls } = stubFetch({
      'GET /api/widgets': () => ({ body: { widgets: [widget()] } }),
      'GET /api/avatars': () => ({ body: avatars }),
      'POST /api/widgets/9/rotate-key': () => ({ body: rotated }),
    });
    show();
    const [card] = await screen.findAllByTestId('widget-card');
    fireEvent.click(within(card).getByRole('button', { name: 'Rotate key of Shop helper' }));
    const confirm = await screen.findByTestId('widget-rotate-modal');
    await waitFor(() => expect(confirm).toHaveTextContent('The code already on your websites stops working at once'));
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel', hidden: true }));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.click(within(card).getByRole('button', { name: 'Rotate key of Shop helper' }));
    fireEvent.click(within(await screen.findByTestId('widget-rotate-modal')).getByRole('button', { name: 'Rotate key', hidden: true }));
    expect(await screen.findByText('Shop helper has a new key. Replace the code on your websites.')).toBeInTheDocument();
    // The same dialog now shows the new code, and the focus is on it (not lost with the confirm button).
    const code = screen.getByTestId('widget-rotate-modal');
    await waitFor(() => expect(within(code).getByTestId('widget-snippet')).toHaveTextContent('data-key="pw_NEWKEYnewkeyNEWKEYnewkeyNEWKEY12"'));
    expect(within(code).getByTestId('widget-snippet')).not.toHaveTextContent(KEY);
    expect(document.activeElement).toBe(within(code).getByTestId('widget-snippet'));
    expect(within(code).queryByRole('button', { name: 'Rotate key', hidden: true })).toBeNull();
  });

  it('deletes only after confirming; the list then says there are none', async () => {
    let widgets = [widget()];
    const { calls } = stubFetch({
      'GET /api/widgets': () => ({ body: { widgets } }),
      'GET /api/avatars': () => ({ body: avatars }),
      'DELETE /api/widgets/9': () => ((widgets = []), { body: { deleted: true } }),
    });
    show();
    const [card] = await screen.findAllByTestId('widget-card');
    fireEvent.click(within(card).getByRole('button', { name: 'Delete Shop helper' }));
    const confirm = await screen.findByTestId('widget-delete-modal');
    await waitFor(() => expect(confirm).toHaveTextContent('This cannot be undone.'));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete', hidden: true }));
    expect(await screen.findByText('Shop helper Widget deleted')).toBeInTheDocument();
    expect(await screen.findByTestId('widgets-empty')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });

  it('Edit loads the widget into the form; saving PUTs it (the image removed) and shows its code', async () => {
    const { calls } = stubFetch({
      'GET /api/widgets': () => ({ body: { widgets: [widget({ image_url: 'https://app.example.com/api/files/1.png' })] } }),
      'GET /api/avatars': () => ({ body: avatars }),
      'PUT /api/widgets/9': () => ({ body: widget({ name: 'Renamed' }) }),
    });
    show('/chat-widget-generator/9');
    expect(await screen.findByText('Edit Shop helper')).toBeInTheDocument();
    expect(screen.getByTestId('widget-name')).toHaveValue('Shop helper');
    expect(screen.getByTestId('widget-origins')).toHaveValue('https://shop.example.com');
    expect(screen.getByTestId('widget-avatar')).toHaveValue('Copywriter');
    type('widget-name', 'Renamed');
    expect(screen.getByRole('img', { name: 'Current button image' })).toHaveAttribute('src', 'https://app.example.com/api/files/1.png');
    fireEvent.click(screen.getByTestId('widget-remove-image'));
    expect(screen.queryByRole('img', { name: 'Current button image' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save Widget' }));
    expect(await screen.findByText('Renamed Widget saved')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ avatar_id: 3, name: 'Renamed', accent_color: '#ff0000', allowed_origins: ['https://shop.example.com'], remove_image: true });
    expect(screen.getByTestId('widget-snippet')).toHaveTextContent('data-name="Renamed"');
    fireEvent.click(screen.getByTestId('widget-cancel-edit'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/chat-widget-generator$/));
  });

  it('an unknown widget id says it was not found; a failed list offers a retry', async () => {
    let fail = true;
    stubFetch({
      'GET /api/widgets': () => (fail ? { status: 500, body: { error: 'server_error', message: 'Boom' } } : { body: { widgets: [] } }),
      'GET /api/avatars': () => ({ body: avatars }),
    });
    show('/chat-widget-generator/77');
    expect(await screen.findByTestId('widgets-error')).toHaveTextContent('Your widgets could not be loaded.');
    expect(screen.getByTestId('widget-not-found')).toHaveTextContent('This widget was not found.');
    fail = false;
    fireEvent.click(within(screen.getByTestId('widgets-error')).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('widgets-empty')).toBeInTheDocument();
  });
});

describe('widget conversations', () => {
  const sessionRow = (id: number, preview: string) => ({ session_id: id, origin: 'https://shop.example.com', started_at: '2026-02-01T10:00:00.000Z', last_message_at: '2026-02-01T10:05:00.000Z', messages_count: 2, preview });
  const showConversations = (route: string) =>
    renderScreen(
      <Suspense fallback={null}>
        <WidgetConversationsPage />
      </Suspense>,
      { session: fakeSession(buildUser()), route, path: '/chat-widget-generator/:widgetId/conversations' },
    );

  it('lists the sessions by page and reads one as a transcript (plain text)', async () => {
    const pageOf = (url: string) => Number(new URL(url, 'http://x').searchParams.get('page'));
    const { calls } = stubFetch({
      'GET /api/widgets': () => ({ body: { widgets: [widget()] } }),
      'GET /api/widgets/9/sessions': (_, url) => ({
        body: { sessions: pageOf(url) === 1 ? [sessionRow(31, 'Do you ship to Spain?')] : [sessionRow(30, 'Older question')], total: 21, page: pageOf(url) } satisfies WidgetSessionList,
      }),
      'GET /api/widgets/9/sessions/31': () => ({
        body: {
          session: sessionRow(31, 'Do you ship to Spain?'),
          messages: [
            { message_id: 1, role: 'user', content: 'Do you ship to Spain? <img src=x onerror=alert(1)>', status: 'done', created_at: '2026-02-01T10:00:00.000Z' },
            { message_id: 2, role: 'assistant', content: 'Yes, we do.', status: 'failed', created_at: '2026-02-01T10:00:05.000Z' },
            { message_id: 3, role: 'assistant', content: 'We ship to', status: 'stopped', created_at: '2026-02-01T10:00:09.000Z' },
          ],
        } satisfies WidgetSessionDetail,
      }),
    });
    showConversations('/chat-widget-generator/9/conversations');
    expect(await screen.findByRole('heading', { name: 'Conversations of Shop helper' })).toBeInTheDocument();
    const [row] = await screen.findAllByTestId('widget-session-row');
    expect(row).toHaveTextContent('https://shop.example.com');
    expect(row).toHaveTextContent('Do you ship to Spain?');
    fireEvent.click(within(row).getByTestId('widget-session-open'));
    const transcript = await screen.findByTestId('widget-transcript');
    const messages = await within(transcript).findAllByTestId('widget-transcript-message');
    expect(messages[0]).toHaveTextContent('Visitor');
    expect(messages[0]).toHaveTextContent('<img src=x onerror=alert(1)>');
    expect(transcript.querySelector('img')).toBeNull();
    expect(messages[1]).toHaveTextContent('Widget');
    expect(messages[1]).toHaveTextContent('Not answered');
    expect(messages[2]).toHaveTextContent('We ship to');
    expect(messages[2]).toHaveTextContent('Stopped by the visitor');
    expect(screen.getByTestId('location')).toHaveTextContent('session=31');

    fireEvent.click(screen.getByRole('button', { name: '2' }));
    expect(await screen.findByText('Older question')).toBeInTheDocument();
    expect(calls.some((c) => c.url.startsWith('/api/widgets/9/sessions') && pageOf(c.url) === 2)).toBe(true);
    expect(screen.queryByTestId('widget-transcript')).toBeNull();
  });

  it('says when there are none, and when the widget is not the user’s (404)', async () => {
    stubFetch({
      'GET /api/widgets': () => ({ body: { widgets: [widget()] } }),
      'GET /api/widgets/9/sessions': () => ({ body: { sessions: [], total: 0, page: 1 } }),
    });
    const { unmount } = showConversations('/chat-widget-generator/9/conversations');
    expect(await screen.findByTestId('widget-sessions-empty')).toHaveTextContent('No conversations yet');
    unmount();
    showConversations('/chat-widget-generator/12/conversations');
    expect(await screen.findByTestId('widget-not-found')).toHaveTextContent('This widget was not found.');
  });
});

describe('in Spanish', () => {
  it('shows the generator, its checks and the list in Spanish', async () => {
    await setLanguage('es');
    stubFetch({ 'GET /api/widgets': () => ({ body: { widgets: [widget()] } }), 'GET /api/avatars': () => ({ body: avatars }) });
    show();
    expect(await screen.findByRole('heading', { name: 'Generador de widget de chat' })).toBeInTheDocument();
    const [card] = await screen.findAllByTestId('widget-card');
    expect(card).toHaveTextContent('1200 palabras usadas · 2 conversaciones');
    expect(screen.getByTestId('widget-generate')).toHaveTextContent('Generar widget de chat');
    expect(screen.getByText(/El widget responde solo en estos sitios web/)).toBeInTheDocument();
    generate();
    expect(await screen.findByTestId('app-error')).toHaveTextContent('Por favor, selecciona un avatar');
    await chooseAvatar('Copywriter');
    type('widget-name', 'Tienda');
    generate();
    expect(await screen.findByTestId('widget-nowhere-warning')).toHaveTextContent('Este widget aún no responderá en ningún sitio');
    expect(screen.getByTestId('widget-generate-anyway')).toHaveTextContent('Generar de todos modos');
    fireEvent.click(within(card).getByRole('button', { name: 'Ver código de Shop helper' }));
    const code = await screen.findByTestId('widget-code-modal');
    await waitFor(() => expect(within(code).getByTestId('widget-snippet')).toHaveTextContent('data-lang="es"'));
    expect(within(code).getByRole('button', { name: 'Copiar el widget al portapapeles', hidden: true })).toBeInTheDocument();
  });
});
