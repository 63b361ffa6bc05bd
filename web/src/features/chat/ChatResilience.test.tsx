// The conversation screen when things go wrong or change (issue "Hardening" item 8): the connection
// banner and the resync after a reconnect, an indicator that stops once the answer is final, Retry that
// replaces an unfinished answer, Continue on an interrupted one, Regenerate (last answer, edited prompt),
// the side list of conversations on wide screens, the first prompt typed on the list, and file attaching.
import type { Conversation } from '@pluma/common/conversations';
import type { Message } from '@pluma/common/messages-api';
import { act, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n';
import { buildConversation, buildMessage, buildMessagePage } from '../../test/messages';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import { setupFakeSocket } from '../../test/fake-socket';

// The screen mounts and takes its history in background renders (React transitions): on a busy test
// machine they can take longer than the default second.
configure({ asyncUtilTimeout: 5000 });

// The real-time channel: tests deliver server events through `emit` and set the connection's state.
const socket = setupFakeSocket();

const { default: ConversationPage } = await import('./ConversationPage');
const { default: ConversationsPage } = await import('../conversations/ConversationsPage');
const { queueFirstPrompt, takeFirstPrompt } = await import('./first-prompt');
const { HIDE_FILE_ADVICE_KEY } = await import('./FileAttach');


const conversation = buildConversation();
const demoModels = [{ id: 'demo', label: 'Demo (offline)', provider: 'demo', isDefault: true }];

const message = (overrides: Partial<Message> & Pick<Message, 'message_id'>) => buildMessage({ conversation_id: 9, ...overrides });
const prompt = message({ message_id: 1, role: 'user', content: 'Tell me about roses', finish_reason: null });
const frame = (content: string, message_id = 2) => ({ message_id, conversation_id: 9, content, stream: true, isThread: false });

type Routes = Parameters<typeof stubFetch>[0];

/** The conversation screen; `pages` are the successive answers of GET messages (the last one repeats). */
function renderConversation(pages: Message[][], extra: Routes = {}, options: { conversation?: Conversation; models?: unknown[] } = {}) {
  let served = 0;
  const api = stubFetch({
    'GET /api/conversations/conversation/9': () => ({ body: options.conversation ?? conversation }),
    'GET /api/models': () => ({ body: options.models ?? demoModels }),
    'GET /api/messages/conversation/9': () => ({ body: buildMessagePage(pages[Math.min(served++, pages.length - 1)]) }),
    'GET /api/conversations': () => ({ body: { conversations: [conversation, { ...conversation, conversation_id: 10, name: 'Other chat' }], total: 2, next_cursor: null } }),
    ...extra,
  });
  renderScreen(
    <Suspense fallback={null}>
      <ConversationPage />
    </Suspense>,
    { route: '/conversations/9', path: '/conversations/:conversationId', session: fakeSession(buildUser()) },
  );
  const messageGets = () => api.calls.filter((c) => c.method === 'GET' && c.url.includes('/api/messages/conversation/9')).length;
  const posts = () => api.calls.filter((c) => c.method === 'POST' && c.url.endsWith('/api/messages')).map((c) => c.body);
  return { ...api, messageGets, posts };
}

const row = (id: number) => screen.getAllByTestId('message').find((el) => el.dataset.messageId === String(id))!;

beforeAll(async () => {
  await i18n.loadNamespaces('chat');
  await i18n.loadLanguages('es');
});

beforeEach(async () => {
  socket.setStatus('connected');
  socket.reconnect.calls = 0;
  await setLanguage('en');
});

describe('connection lost', () => {
  it('shows a status banner while the socket is down and reads the conversation again once it is back', async () => {
    const streaming = message({ message_id: 2, content: 'Roses are', status: 'streaming', finish_reason: null, user_message_id: 1 });
    const interrupted = message({ ...streaming, content: 'Roses are lovely', status: 'interrupted', finish_reason: 'interrupted', abilities: undefined });
    const { messageGets } = renderConversation([[prompt, streaming], [prompt, interrupted]]);
    await screen.findByText('Roses are');
    expect(screen.queryByTestId('connection-banner')).toBeNull();

    act(() => socket.setStatus('reconnecting'));
    const banner = await screen.findByTestId('connection-banner');
    expect(banner).toHaveAttribute('role', 'status');
    expect(banner).toHaveTextContent('Connection lost. Reconnecting…');
    const before = messageGets();

    act(() => socket.setStatus('connected'));
    await waitFor(() => expect(screen.queryByTestId('connection-banner')).toBeNull());
    // Resynced: the saved text and the final state, with its actions; the indicator is gone.
    await waitFor(() => expect(row(2)).toHaveAttribute('data-status', 'interrupted'));
    expect(messageGets()).toBeGreaterThan(before);
    expect(row(2)).toHaveTextContent('Roses are lovely');
    expect(within(row(2)).queryByTestId('typing-indicator')).toBeNull();
    expect(within(row(2)).getByRole('button', { name: 'Continue' })).toBeEnabled();
    expect(within(row(2)).getByRole('button', { name: 'Retry' })).toBeEnabled();
  });

  it('offers Reconnect when the server refused the connection, in Spanish too', async () => {
    await setLanguage('es');
    renderConversation([[prompt, message({ message_id: 2, user_message_id: 1, content: 'Hola' })]]);
    await screen.findByText('Hola');
    act(() => socket.setStatus('offline'));
    const banner = await screen.findByTestId('connection-banner');
    expect(banner).toHaveAttribute('role', 'status');
    expect(banner).toHaveTextContent('Las actualizaciones en vivo están desactivadas.');
    fireEvent.click(within(banner).getByRole('button', { name: 'Reconectar' }));
    expect(socket.reconnect.calls).toBe(1);
  });

  it('the writing indicator stops when an answer whose frames never come is final on the server', async () => {
    const pending = message({ message_id: 2, content: null, status: 'pending', finish_reason: null, user_message_id: 1 });
    const failed = message({ ...pending, content: '', status: 'failed', finish_reason: 'error', error_code: 'http_500', abilities: undefined });
    renderConversation([[prompt, pending], [prompt, failed]]);
    expect(await screen.findByTestId('typing-indicator')).toBeInTheDocument();
    // No frame arrives: the answer is read from the server (every 1.5 s) until it is final.
    await waitFor(() => expect(row(2)).toHaveAttribute('data-status', 'failed'), { timeout: 5000 });
    expect(screen.queryByTestId('typing-indicator')).toBeNull();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDefined();
  });
});

describe('retry, continue and regenerate', () => {
  it('Retry on an interrupted answer replaces it in place: one answer, written again', async () => {
    const interrupted = message({ message_id: 2, content: 'Half an answer', status: 'interrupted', finish_reason: 'interrupted', user_message_id: 1 });
    const { posts } = renderConversation([[prompt, interrupted]], {
      'POST /api/messages': () => ({ body: { user_message: null, assistant_message: message({ ...interrupted, content: null, status: 'pending', finish_reason: null, abilities: undefined }) } }),
    });
    fireEvent.click(await within(await screen.findByTestId('message-failed')).findByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(posts()).toEqual([{ conversation_id: 9, message_id: 2, stream: true, regenerate: true }]));
    // The old text goes at once; the new one streams into the same row.
    await waitFor(() => expect(row(2)).not.toHaveTextContent('Half an answer'));
    expect(within(row(2)).getByTestId('typing-indicator')).toBeInTheDocument();
    act(() => socket.emit('message_stream', frame('A whole ')));
    act(() => socket.emit('message_stream', frame('new answer')));
    await waitFor(() => expect(row(2)).toHaveTextContent('A whole new answer'));
    expect(screen.getAllByTestId('message').filter((el) => el.dataset.role === 'assistant')).toHaveLength(1);
    expect(screen.queryByTestId('message-failed')).toBeNull();
  });

  it('Continue on an interrupted answer appends to its text', async () => {
    const interrupted = message({ message_id: 2, content: 'Roses are', status: 'interrupted', finish_reason: 'interrupted', user_message_id: 1 });
    const { posts } = renderConversation([[prompt, interrupted]], {
      'POST /api/messages': () => ({ body: { user_message: null, assistant_message: message({ ...interrupted, status: 'pending', finish_reason: null, abilities: undefined }) } }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(posts()).toEqual([{ conversation_id: 9, message_id: 2, stream: true }]));
    act(() => socket.emit('message_stream', frame(' lovely')));
    await waitFor(() => expect(row(2)).toHaveTextContent('Roses are lovely'));
  });

  it('Regenerate on the last answer asks for a new answer; earlier answers do not offer it', async () => {
    const older = [message({ message_id: 1, role: 'user', content: 'First', finish_reason: null }), message({ message_id: 2, content: 'First answer', user_message_id: 1 })];
    const last = [message({ message_id: 3, role: 'user', content: 'Second', finish_reason: null }), message({ message_id: 4, content: 'Second answer', user_message_id: 3 })];
    const fresh = message({ message_id: 5, content: null, status: 'pending', finish_reason: null, user_message_id: 3 });
    const { posts } = renderConversation([[...older, ...last]], {
      'POST /api/messages': () => ({ status: 201, body: { user_message: null, assistant_message: fresh } }),
    });
    await screen.findByText('Second answer');
    expect(within(row(2)).queryByRole('button', { name: 'Regenerate' })).toBeNull();
    fireEvent.click(within(row(4)).getByRole('button', { name: 'Regenerate' }));
    await waitFor(() => expect(posts()).toEqual([{ conversation_id: 9, message_id: 4, stream: true, regenerate: true }]));
    await waitFor(() => expect(row(5)).toHaveAttribute('data-status', 'pending'));
  });

  it('editing a prompt offers to regenerate its answer from the new text', async () => {
    const answer = message({ message_id: 2, content: 'About roses', user_message_id: 1 });
    const fresh = message({ message_id: 3, content: null, status: 'pending', finish_reason: null, user_message_id: 1 });
    const { calls, posts } = renderConversation([[prompt, answer]], {
      'PUT /api/messages': (init) => ({ body: { ...prompt, ...JSON.parse(String(init.body)) } }),
      'POST /api/messages': () => ({ status: 201, body: { user_message: null, assistant_message: fresh } }),
    });
    await screen.findByText('About roses');
    fireEvent.click(within(row(1)).getByRole('button', { name: 'Edit' }));
    fireEvent.change(within(row(1)).getByRole('textbox', { name: 'Edit message' }), { target: { value: 'Tell me about tulips' } });
    fireEvent.click(within(row(1)).getByRole('button', { name: 'Save' }));
    const offer = await within(row(1)).findByTestId('regenerate-offer');
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ message_id: 1, content: 'Tell me about tulips' });
    expect(posts()).toEqual([]);
    fireEvent.click(within(offer).getByRole('button', { name: 'Regenerate answer' }));
    await waitFor(() => expect(posts()).toEqual([{ conversation_id: 9, message_id: 2, stream: true, regenerate: true }]));
    await waitFor(() => expect(within(row(1)).queryByTestId('regenerate-offer')).toBeNull());

    // Keeping the answer just closes the offer.
    fireEvent.click(within(row(1)).getByRole('button', { name: 'Edit' }));
    fireEvent.change(within(row(1)).getByRole('textbox', { name: 'Edit message' }), { target: { value: 'Tell me about lilies' } });
    fireEvent.click(within(row(1)).getByRole('button', { name: 'Save' }));
    fireEvent.click(within(await within(row(1)).findByTestId('regenerate-offer')).getByRole('button', { name: 'Keep the answer' }));
    expect(within(row(1)).queryByTestId('regenerate-offer')).toBeNull();
    expect(posts()).toHaveLength(1);
  });
});

describe('layout and starting a chat', () => {
  it('lists conversations beside the open chat on wide screens only', async () => {
    const wide = vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) =>
        ({ matches: query.includes('75em'), media: query, onchange: null, addListener: () => undefined, removeListener: () => undefined, addEventListener: () => undefined, removeEventListener: () => undefined, dispatchEvent: () => false }) as MediaQueryList,
    );
    renderConversation([[]]);
    const sidebar = await screen.findByTestId('conversation-sidebar');
    expect(await within(sidebar).findByRole('link', { name: 'Other chat' })).toHaveAttribute('href', '/conversations/10');
    expect(within(sidebar).getByRole('link', { name: 'Garden notes' })).toHaveAttribute('aria-current', 'page');
    wide.mockRestore();
  });

  it('hides the list on phones', async () => {
    const { calls } = renderConversation([[]]);
    await screen.findByTestId('conversation-page');
    expect(screen.queryByTestId('conversation-sidebar')).toBeNull();
    expect(calls.some((c) => new URL(c.url, 'http://x').pathname === '/api/conversations')).toBe(false);
  });

  it('starts a chat by typing on the list: the name comes from the prompt, then the screen sends it once', async () => {
    const created = { ...conversation, conversation_id: 42, name: 'Plan a small vegetable garden for a sunny balcony with…' };
    const { calls } = stubFetch({
      'GET /api/conversations': () => ({ body: { conversations: [], total: 0, next_cursor: null } }),
      'GET /api/models': () => ({ body: demoModels }),
      'POST /api/conversations': () => ({ status: 201, body: created }),
    });
    renderScreen(
      <Suspense fallback={null}>
        <ConversationsPage />
      </Suspense>,
      { route: '/conversations', session: fakeSession(buildUser()) },
    );
    const input = await screen.findByRole('textbox', { name: 'Start a new chat' });
    const text = 'Plan a small vegetable garden for a sunny balcony with tomatoes, basil and peppers';
    fireEvent.change(input, { target: { value: text } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/conversations/42'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Plan a small vegetable garden for a sunny balcony with…', organization_id: null });
    expect(takeFirstPrompt(42)).toBe(text);
    expect(takeFirstPrompt(42)).toBeNull();
  });

  it('the new conversation screen sends the queued first prompt once', async () => {
    queueFirstPrompt(9, 'Hello garden');
    const pending = message({ message_id: 2, content: null, status: 'pending', finish_reason: null, user_message_id: 1 });
    const { posts } = renderConversation([[]], {
      'POST /api/messages': () => ({ status: 201, body: { user_message: { ...prompt, content: 'Hello garden' }, assistant_message: pending } }),
    });
    await waitFor(() => expect(posts()).toEqual([{ stream: true, content: 'Hello garden', conversation_id: 9 }]));
    expect(await screen.findByText('Hello garden')).toBeInTheDocument();
    expect(await screen.findByTestId('typing-indicator')).toBeInTheDocument();
    expect(posts()).toHaveLength(1);
  });
});

describe('attaching a file', () => {
  const claudeConversation = { ...conversation, model: 'claude-sonnet-4-6' };
  const claudeModels = [...demoModels, { id: 'claude-sonnet-4-6', label: 'Claude', provider: 'anthropic', isDefault: false }];

  /** Answers the multipart upload (the JSON fetch stub cannot read it); everything else is passed on. */
  function stubUpload() {
    const jsonFetch = globalThis.fetch;
    const uploads: FormData[] = [];
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
      if (!String(input).endsWith('/api/conversations/file/9')) return jsonFetch(input, init);
      uploads.push(init.body as FormData);
      return new Response(JSON.stringify({ ...claudeConversation, file: { name: 'notes.pdf' } }), { status: 200, headers: { 'Content-Type': 'application/json' } });
    });
    return uploads;
  }

  it("with Claude, the click opens the file advice (permitted files, 100 pages); Continue opens the picker and the chosen file is uploaded at once", async () => {
    renderConversation([[]], {}, { conversation: claudeConversation, models: claudeModels });
    const uploads = stubUpload();
    const input = (await screen.findByTestId('file-input')) as HTMLInputElement;
    const picker = vi.spyOn(input, 'click');
    // The short beta note stays under the prompt.
    expect(screen.getByTestId('claude-file-notes')).toHaveTextContent('File support with Claude is in beta.');
    fireEvent.click(screen.getByTestId('attach-file'));
    const advice = await screen.findByRole('dialog', { name: 'Files with Claude' });
    expect(advice).toHaveTextContent('With Claude, only PDF, JPEG, PNG, GIF and WebP files are used.');
    expect(advice).toHaveTextContent('Claude reads at most 100 PDF pages in total.');
    expect(picker).not.toHaveBeenCalled();
    fireEvent.click(within(advice).getByRole('button', { name: 'Continue' }));
    expect(picker).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Not ticked: asked again next time.
    expect(localStorage.getItem(HIDE_FILE_ADVICE_KEY)).toBeNull();
    // Claude: the picker offers only what Claude reads.
    expect(input.accept).toBe('application/pdf,image/jpeg,image/png,image/gif,image/webp');
    fireEvent.change(input, { target: { files: [new File(['%PDF-1.4'], 'notes.pdf', { type: 'application/pdf' })] } });
    await waitFor(() => expect(uploads).toHaveLength(1));
    expect((uploads[0].get('file') as File).name).toBe('notes.pdf');
    expect(await screen.findByText('File attached to the conversation')).toBeInTheDocument();
  });

  it("\"Don't show this again\" is stored and the picker then opens straight away; Cancel opens no picker", async () => {
    renderConversation([[]], {}, { conversation: claudeConversation, models: claudeModels });
    const input = (await screen.findByTestId('file-input')) as HTMLInputElement;
    const picker = vi.spyOn(input, 'click');
    fireEvent.click(screen.getByTestId('attach-file'));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(picker).not.toHaveBeenCalled();

    fireEvent.click(screen.getByTestId('attach-file'));
    const advice = await screen.findByRole('dialog');
    fireEvent.click(within(advice).getByRole('checkbox', { name: "Don't show this again" }));
    fireEvent.click(within(advice).getByRole('button', { name: 'Continue' }));
    expect(picker).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(HIDE_FILE_ADVICE_KEY)).toBe('true');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByTestId('attach-file'));
    expect(picker).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('the advice is usable from the keyboard: Enter opens it, focus moves into it, Space ticks the box, Escape closes it (keeping the choice)', async () => {
    const user = userEvent.setup();
    renderConversation([[]], {}, { conversation: claudeConversation, models: claudeModels });
    const input = (await screen.findByTestId('file-input')) as HTMLInputElement;
    const picker = vi.spyOn(input, 'click');
    screen.getByTestId('attach-file').focus();
    await user.keyboard('{Enter}');
    const advice = await screen.findByRole('dialog');
    await waitFor(() => expect(advice.contains(document.activeElement)).toBe(true));
    const box = within(advice).getByRole('checkbox', { name: "Don't show this again" });
    box.focus();
    await user.keyboard(' ');
    expect(box).toBeChecked();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(picker).not.toHaveBeenCalled();
    expect(localStorage.getItem(HIDE_FILE_ADVICE_KEY)).toBe('true');
  });

  it('stays hidden once dismissed', async () => {
    localStorage.setItem(HIDE_FILE_ADVICE_KEY, 'true');
    renderConversation([[]], {}, { conversation: claudeConversation, models: claudeModels });
    const input = (await screen.findByTestId('file-input')) as HTMLInputElement;
    const picker = vi.spyOn(input, 'click');
    fireEvent.click(screen.getByTestId('attach-file'));
    expect(picker).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('in Spanish', async () => {
    await setLanguage('es');
    renderConversation([[]], {}, { conversation: claudeConversation, models: claudeModels });
    fireEvent.click(await screen.findByTestId('attach-file'));
    const advice = await screen.findByRole('dialog', { name: 'Archivos con Claude' });
    expect(advice).toHaveTextContent('Con Claude solo se usan archivos PDF, JPEG, PNG, GIF y WebP.');
    expect(advice).toHaveTextContent('Claude lee como máximo 100 páginas de PDF en total.');
    expect(within(advice).getByRole('checkbox', { name: 'No volver a mostrar' })).toBeInTheDocument();
    expect(within(advice).getByRole('button', { name: 'Continuar' })).toBeInTheDocument();
  });

  it('other models open the picker at once, with no advice', async () => {
    renderConversation([[]]);
    const input = (await screen.findByTestId('file-input')) as HTMLInputElement;
    const picker = vi.spyOn(input, 'click');
    fireEvent.click(screen.getByTestId('attach-file'));
    expect(picker).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByTestId('claude-file-notes')).toBeNull();
  });
});
