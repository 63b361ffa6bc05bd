// Avatar chat on the conversation screen (issue 13 items 3 and 6; spec part 2 §2 "Conversations", §9): the
// citations under an avatar's answer (file, page; the passage in a modal), Convert to Avatar from a message
// with a personality block (and the prompt to add the own AI key on 409), a message refused for a trained
// model's missing key (the server's words and a link to Settings), the avatar control in the prompt box,
// the once-per-session 'Hola' greeting of an empty avatar conversation, and paging by 10.
import type { Conversation } from '@pluma/common/conversations';
import type { Message } from '@pluma/common/messages-api';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n';
import { buildConversation, buildMessage, buildMessagePage } from '../../test/messages';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import { setupFakeSocket } from '../../test/fake-socket';

configure({ asyncUtilTimeout: 5000 });

setupFakeSocket();

const { default: ConversationPage } = await import('./ConversationPage');

const CITATION = { file_id: 31, name: 'keeper-notes-for-the-northern-lighthouse.pdf', page: 3, heading: 'Fog', text: 'The keeper logs the foghorn every night at eleven.' };
const BLOCK = 'Here it is:\n\n**INICIO DE PERSONALIDAD**\nEres una coach cálida y directa.\n**FIN DE PERSONALIDAD**';

function avatarSummary(avatar_id: number, name: string) {
  return { avatar_id, name, assistant_id: null, description: '', context: 'c', public: false, user_id: 1, organization_id: null, super_fetch_assistant: false, kind: null, author: null, files_count: 0, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', abilities: {} };
}

function renderConversation(conversation: Conversation, messages: Message[], extra: Parameters<typeof stubFetch>[0] = {}) {
  const id = conversation.conversation_id;
  const api = stubFetch({
    [`GET /api/conversations/conversation/${id}`]: () => ({ body: conversation }),
    'GET /api/models': () => ({ body: [{ id: 'gpt-4o-mini', label: 'GPT 4o Mini', provider: 'openai', isDefault: true }] }),
    [`GET /api/messages/conversation/${id}`]: () => ({ body: buildMessagePage(messages) }),
    'GET /api/avatars': () => ({ body: { avatars: [avatarSummary(5, 'Keeper')], total: 1 } }),
    'GET /api/avatars/public/all': () => ({ body: { avatars: [avatarSummary(8, 'Orchard')], total: 1 } }),
    ...extra,
  });
  renderScreen(
    <Suspense fallback={null}>
      <ConversationPage />
    </Suspense>,
    { route: `/conversations/${id}`, path: '/conversations/:conversationId', session: fakeSession(buildUser()), config: { avatars_enabled: 'true', web_search_provider: 'searxng' } },
  );
  return api;
}

beforeAll(async () => {
  await i18n.loadNamespaces('chat');
  await i18n.loadLanguages('es');
});

beforeEach(async () => {
  window.sessionStorage.clear();
  await setLanguage('en');
});

describe('avatar chat', () => {
  it("shows an avatar answer's citations (file, page) and opens the passage in a modal; in Spanish too", async () => {
    const conversation = buildConversation({ conversation_id: 21, avatar_id: 5 });
    const answer = buildMessage({ message_id: 2, conversation_id: 21, avatar_id: 5, content: 'At eleven.', citations: [CITATION] });
    const plain = buildMessage({ message_id: 4, conversation_id: 21, content: 'No sources here.' });
    renderConversation(conversation, [buildMessage({ message_id: 1, conversation_id: 21, role: 'user', content: 'When?' }), answer, buildMessage({ message_id: 3, conversation_id: 21, role: 'user', content: 'Hi' }), plain]);
    const citation = await screen.findByTestId('citation');
    // The name is shortened after 30 characters (spec part 2 §9), the page follows.
    expect(citation).toHaveTextContent('keeper-notes-for-the-northern-… · p. 3');
    expect(screen.getAllByTestId('citations')).toHaveLength(1);
    fireEvent.click(citation);
    const modal = await screen.findByRole('dialog');
    expect(within(modal).getByText('The keeper logs the foghorn every night at eleven.')).toBeInTheDocument();
    expect(within(modal).getByText('Fog')).toBeInTheDocument();
    expect(within(modal).getByText('keeper-notes-for-the-northern-lighthouse.pdf · p. 3')).toBeInTheDocument();

    await setLanguage('es');
    expect(await screen.findByText('Fuentes')).toBeInTheDocument();
  });

  it("searches the web from an avatar's chat (the globe sends searchOnInternet with the avatar); an answer's [1] links to its source", async () => {
    const conversation = buildConversation({ conversation_id: 27, avatar_id: 5 });
    const source = { n: 1, title: 'Growing ferns', url: 'https://ferns.example.org/care', site: 'ferns.example.org', snippet: 'Ferns grow in shade.' };
    const answer = buildMessage({ message_id: 2, conversation_id: 27, avatar_id: 5, content: 'Ferns like shade [1].', sources: [source] });
    const pending = buildMessage({ message_id: 4, conversation_id: 27, content: null, status: 'pending', finish_reason: null });
    const { calls } = renderConversation(conversation, [buildMessage({ message_id: 1, conversation_id: 27, role: 'user', content: 'Ferns?' }), answer], {
      'POST /api/messages': () => ({ status: 201, body: { user_message: buildMessage({ message_id: 3, conversation_id: 27, role: 'user', content: 'Moss?' }), assistant_message: pending } }),
    });
    const link = await screen.findByRole('link', { name: '[1]' });
    expect(link).toHaveAttribute('href', 'https://ferns.example.org/care');
    expect(link).toHaveAttribute('target', '_blank');
    expect(within(screen.getByTestId('web-sources')).getByRole('link', { name: '[1] Growing ferns' })).toHaveAttribute('href', 'https://ferns.example.org/care');

    fireEvent.click(screen.getByTestId('web-search-toggle'));
    fireEvent.change(screen.getByTestId('prompt-input'), { target: { value: 'Moss?' } });
    fireEvent.click(screen.getByTestId('send-button'));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ stream: true, content: 'Moss?', conversation_id: 27, avatar_id: 5, searchOnInternet: true }));
  });

  it("marks an answer written by the avatar's trained model, with the model's name in its tooltip; in Spanish too", async () => {
    const conversation = buildConversation({ conversation_id: 23, avatar_id: 5 });
    const model = 'ft:gpt-4o-mini-2024-07-18:acme:keeper-1:abc123';
    renderConversation(conversation, [
      buildMessage({ message_id: 1, conversation_id: 23, role: 'user', content: 'When?', model }),
      buildMessage({ message_id: 2, conversation_id: 23, avatar_id: 5, content: 'At eleven.', model }),
      buildMessage({ message_id: 3, conversation_id: 23, role: 'user', content: 'And you?' }),
      buildMessage({ message_id: 4, conversation_id: 23, avatar_id: 5, content: 'Plain model.', model: 'gpt-4o-mini' }),
    ]);
    const badge = await screen.findByTestId('trained-model-badge');
    expect(screen.getAllByTestId('trained-model-badge')).toHaveLength(1);
    expect(badge).toHaveTextContent('Trained model');
    expect(badge).toHaveAccessibleName(`Written by the trained model ${model}`);
    expect(badge.closest('[data-message-id]')).toHaveAttribute('data-message-id', '2');
    await setLanguage('es');
    expect(await screen.findByText('Modelo entrenado')).toBeInTheDocument();
  });

  it('Convert to Avatar: only a message with a personality block offers it; the block becomes the context of POST /avatars', async () => {
    const conversation = buildConversation({ conversation_id: 22 });
    const { calls } = renderConversation(conversation, [buildMessage({ message_id: 2, conversation_id: 22, content: BLOCK }), buildMessage({ message_id: 4, conversation_id: 22, content: 'Just text.' })], {
      'POST /api/avatars': () => ({ status: 201, body: { ...avatarSummary(12, 'Coach'), avatar_files: [] } }),
    });
    const buttons = await screen.findAllByTestId('convert-to-avatar');
    expect(buttons).toHaveLength(1);
    fireEvent.click(buttons[0]);
    const context = await screen.findByTestId('convert-context');
    expect(context).toHaveValue('Eres una coach cálida y directa.');
    // The name is required (the avatars' own rule and text).
    fireEvent.click(screen.getByTestId('convert-submit'));
    expect(await screen.findByText("The input can't be empty")).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST' && c.url.includes('/api/avatars'))).toBe(false);
    fireEvent.change(screen.getByTestId('convert-name'), { target: { value: 'Coach' } });
    fireEvent.click(screen.getByTestId('convert-submit'));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST' && c.url.includes('/api/avatars'))?.body).toEqual({ name: 'Coach', context: 'Eres una coach cálida y directa.' }));
    // The new avatar opens.
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/avatars/12'));
  });

  it('Convert to Avatar without the own AI key shows the prompt to add it in Settings (409 ai_key_required)', async () => {
    const conversation = buildConversation({ conversation_id: 23 });
    renderConversation(conversation, [buildMessage({ message_id: 2, conversation_id: 23, content: BLOCK })], {
      'POST /api/avatars': () => ({ status: 409, body: { error: 'ai_key_required', message: 'Avatars need your own AI provider API key. Add it in Settings first.' } }),
    });
    fireEvent.click(await screen.findByTestId('convert-to-avatar'));
    fireEvent.change(await screen.findByTestId('convert-name'), { target: { value: 'Coach' } });
    fireEvent.click(screen.getByTestId('convert-submit'));
    const prompt = await screen.findByTestId('ai-key-prompt');
    expect(within(prompt).getByRole('link')).toHaveAttribute('href', '/settings');
  });

  it("says why a message is refused when the avatar's trained model needs the owner's removed key (409 ai_key_required)", async () => {
    const conversation = buildConversation({ conversation_id: 25, avatar_id: 5 });
    const text = 'This avatar answers with your trained model, which runs on your own OpenAI API key. Add the key in Settings, or stop using the trained model.';
    // The greeting is the first message sent; it is refused like any other.
    const { calls } = renderConversation(conversation, [], {
      'POST /api/messages': () => ({ status: 409, body: { error: 'ai_key_required', message: text } }),
    });
    // The server's words stay beside the prompt, with the way to fix it: a link to Settings (not a passing alert).
    const alert = await screen.findByTestId('chat-key-required');
    expect(alert).toHaveTextContent(text);
    expect(within(alert).getByRole('link', { name: 'Add the key in Settings' })).toHaveAttribute('href', '/settings');
    expect(screen.queryByTestId('app-error')).toBeNull();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(screen.queryAllByTestId('message')).toHaveLength(0);
    fireEvent.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByTestId('chat-key-required')).toBeNull());
  });

  it('offers the link to Settings in Spanish too (409 ai_key_required)', async () => {
    await setLanguage('es');
    const conversation = buildConversation({ conversation_id: 29, avatar_id: 5 });
    const text = 'Este avatar responde con tu modelo entrenado, que funciona con tu propia clave de API de OpenAI. Agrega la clave en Configuración o deja de usar el modelo entrenado.';
    renderConversation(conversation, [], { 'POST /api/messages': () => ({ status: 409, body: { error: 'ai_key_required', message: text } }) });
    const alert = await screen.findByTestId('chat-key-required');
    expect(alert).toHaveTextContent(text);
    expect(within(alert).getByRole('link', { name: 'Agregar la clave en Configuración' })).toHaveAttribute('href', '/settings');
    expect(within(alert).getByRole('button', { name: 'Cerrar' })).toBeInTheDocument();
  });

  it("greets an empty avatar conversation with 'Hola' once per session", async () => {
    const conversation = buildConversation({ conversation_id: 24, avatar_id: 5 });
    const user = buildMessage({ message_id: 1, conversation_id: 24, role: 'user', content: 'Hola' });
    const pending = buildMessage({ message_id: 2, conversation_id: 24, content: null, status: 'pending', finish_reason: null });
    const { calls } = renderConversation(conversation, [], {
      'POST /api/messages': () => ({ status: 201, body: { user_message: user, assistant_message: pending } }),
    });
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ stream: true, content: 'Hola', conversation_id: 24, avatar_id: 5 });
    await screen.findByText('Hola');

    // Opened again in the same session, the still-empty conversation is not greeted again.
    calls.length = 0;
    renderConversation(conversation, []);
    await screen.findAllByTestId('prompt-box');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('pages an avatar conversation by 10: the newest 10 first, then 10 older ones at a time', async () => {
    const conversation = buildConversation({ conversation_id: 26, avatar_id: 5 });
    const all = Array.from({ length: 14 }, (_, i) => buildMessage({ message_id: i + 1, conversation_id: 26, role: i % 2 ? 'assistant' : 'user', content: `m${i + 1}` }));
    const { calls } = renderConversation(conversation, [], {
      'GET /api/messages/conversation/26': (_init, url) => {
        const query = new URL(url, 'http://x').searchParams;
        const before = Number(query.get('cursor') ?? Infinity);
        const limit = Number(query.get('limit'));
        const older = all.filter((m) => m.message_id < before);
        const page = older.slice(-limit);
        return { body: buildMessagePage(page, older.length > limit ? page[0].message_id : null) };
      },
    });
    await screen.findByText('m14');
    await waitFor(() => expect(calls.some((c) => c.url.includes('cursor=5') && c.url.includes('limit=10'))).toBe(true));
    expect(await screen.findByText('m1')).toBeInTheDocument();
    // An avatar conversation with messages is not greeted.
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('chooses an avatar in the prompt box: an empty conversation is greeted as it, and no avatar means no greeting', async () => {
    const conversation = buildConversation({ conversation_id: 25 });
    const user = buildMessage({ message_id: 1, conversation_id: 25, role: 'user', content: 'Hola' });
    const pending = buildMessage({ message_id: 2, conversation_id: 25, content: null, status: 'pending', finish_reason: null });
    const { calls } = renderConversation(conversation, [], {
      'POST /api/messages': () => ({ status: 201, body: { user_message: user, assistant_message: pending } }),
    });
    const select = await screen.findByTestId('avatar-select');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    fireEvent.click(select);
    fireEvent.click(await screen.findByRole('option', { name: 'Orchard' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ stream: true, content: 'Hola', conversation_id: 25, avatar_id: 8 }));
  });

  it("stops the avatar's answer to its greeting (Detener): the text and its citations stay, marked stopped", async () => {
    await setLanguage('es');
    const conversation = buildConversation({ conversation_id: 26, avatar_id: 5 });
    const user = buildMessage({ message_id: 1, conversation_id: 26, role: 'user', content: 'Hola' });
    const pending = buildMessage({ message_id: 2, conversation_id: 26, avatar_id: 5, content: null, status: 'pending', finish_reason: null });
    const stopped = buildMessage({ message_id: 2, conversation_id: 26, avatar_id: 5, content: 'Hola, soy el farero', finish_reason: 'stopped', citations: [CITATION] });
    const calls = renderConversation(conversation, [], {
      'POST /api/messages': () => ({ status: 201, body: { user_message: user, assistant_message: pending } }),
      'POST /api/messages/2/stop': () => ({ body: stopped }),
    }).calls;
    fireEvent.click(await screen.findByRole('button', { name: 'Detener' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST' && c.url.includes('/api/messages/2/stop'))).toHaveLength(1));
    expect(await screen.findByTestId('stopped-mark')).toHaveTextContent('Detenida');
    expect(screen.getByText('Hola, soy el farero')).toBeInTheDocument();
    expect(screen.getByTestId('citation')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continuar' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Enviar' })).toBeInTheDocument();
  });
});
