import type { Message } from '@pluma/common/messages-api';
import { act, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n';
import { buildConversation, buildMessage } from '../../test/messages';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import { setupFakeSocket } from '../../test/fake-socket';
import { conversationRenderer } from './testing/render-conversation';

// The screen mounts and takes its history in background renders (React transitions): on a busy test
// machine they can take longer than the default second.
configure({ asyncUtilTimeout: 5000 });

// The real-time channel: tests deliver server events through `emit` and set the connection's state.
const socket = setupFakeSocket();

const { default: ConversationPage } = await import('./ConversationPage');


const conversation = buildConversation({ tags: 'garden' });

const message = (overrides: Partial<Message> & Pick<Message, 'message_id'>) => buildMessage({ conversation_id: conversation.conversation_id, ...overrides });

const renderConversation = conversationRenderer(ConversationPage, conversation);

const frame = (content: string, message_id = 2) => ({ message_id, conversation_id: 9, content, stream: true, isThread: false });

// The 'chat' namespace loads lazily in the app; here it is loaded once up front.
beforeAll(async () => {
  await i18n.loadNamespaces('chat');
  await i18n.loadLanguages('es');
});

beforeEach(async () => {
  await setLanguage('en');
});

describe('conversation screen', () => {
  it("removes the server's picture of the screen once its own messages are shown, not before", async () => {
    document.documentElement.setAttribute('data-first-paint', 'en');
    document.documentElement.setAttribute('data-first-paint-screen', 'conversation');
    const picture = document.createElement('div');
    picture.id = 'first-paint';
    document.body.append(picture);
    // The history's first page waits until released: the screen is up, its messages are not yet.
    let answerPage: (() => void) | null = null;
    const page = new Promise<void>((resolve) => (answerPage = resolve));
    renderConversation([message({ message_id: 1, role: 'user', content: 'Tell me about roses' })], {}, { holdMessages: page });
    expect(await screen.findByTestId('conversation-page')).toBeInTheDocument();
    expect(document.getElementById('first-paint')).not.toBeNull();
    answerPage!();
    expect(await screen.findByText('Tell me about roses')).toBeInTheDocument();
    expect(document.getElementById('first-paint')).toBeNull();
    expect(document.documentElement.hasAttribute('data-first-paint')).toBe(false);
  });

  it('sends with Enter, streams the answer, and shows the final text when the stream ends', async () => {
    const user = message({ message_id: 1, role: 'user', content: 'Tell me about roses', finish_reason: null });
    const pending = message({ message_id: 2, content: null, status: 'pending', finish_reason: null });
    const { calls, session } = renderConversation([], {
      'POST /api/messages': () => ({ status: 201, body: { user_message: user, assistant_message: pending } }),
    });
    const input = await screen.findByRole('textbox', { name: 'Message' });
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();
    fireEvent.change(input, { target: { value: 'Tell me about roses' } });
    // Shift+Enter is a new line, not a send.
    fireEvent.keyDown(input, { key: 'Enter', shiftKey: true });
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ stream: true, content: 'Tell me about roses', conversation_id: 9 }));
    expect(await screen.findByText('Tell me about roses')).toBeInTheDocument();
    expect(input).toHaveValue('');
    // Pending: a typing indicator; Send turns into Stop, and the box is free to type the next prompt.
    expect(await screen.findByTestId('typing-indicator')).toBeInTheDocument();
    fireEvent.change(input, { target: { value: 'next' } });
    expect(input).toHaveValue('next');
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Stop generating' })).toBeEnabled();

    act(() => {
      socket.emit('message_stream', frame('Roses are '));
      socket.emit('message_stream', frame(''));
      socket.emit('message_stream', frame('undefined'));
      socket.emit('message_stream', frame('**lovely**'));
    });
    const answer = () => screen.getAllByTestId('message').find((el) => el.dataset.messageId === '2')!;
    await waitFor(() => expect(answer()).toHaveTextContent('Roses are lovely'));
    expect(within(answer()).getByText('lovely').tagName).toBe('STRONG');

    act(() =>
      socket.emit('message_stream_end', {
        ...frame('Roses are lovely flowers.'),
        finish_reason: 'stop',
        message: message({ message_id: 2, content: 'Roses are lovely flowers.' }),
      }),
    );
    await waitFor(() => expect(answer()).toHaveAttribute('data-status', 'done'));
    expect(answer()).toHaveTextContent('Roses are lovely flowers.');
    expect(screen.queryByTestId('typing-indicator')).toBeNull();
    // spec part 2 §4: the current user (words balance) is refreshed after the stream ends.
    expect(session.reloadUser).toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
  });

  it('shows a provider error, keeps the partial text and offers Retry', async () => {
    renderConversation([message({ message_id: 1, role: 'user', content: 'Hi' }), message({ message_id: 2, content: 'Half', status: 'streaming', finish_reason: null })]);
    await screen.findByText('Half');
    act(() =>
      socket.emit('openai-error', { status: 500, message: 'upstream', code: null, provider: 'openai', message_id: 2, conversation_id: 9 }),
    );
    const failure = await screen.findByTestId('message-failed');
    expect(failure).toHaveTextContent('Sorry, OpenAI is having problems with your request.');
    expect(within(failure).getByRole('button', { name: 'Retry' })).toBeEnabled();
    expect(screen.getByText('Half')).toBeInTheDocument();
  });

  it('offers Continue on an answer cut off at the length limit', async () => {
    const cut = message({ message_id: 2, content: 'A long answer that stops', finish_reason: 'length' });
    const { calls } = renderConversation([message({ message_id: 1, role: 'user', content: 'Go' }), cut], {
      'POST /api/messages': () => ({ body: { user_message: null, assistant_message: message({ ...cut, status: 'pending', finish_reason: null, abilities: undefined }) } }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ conversation_id: 9, message_id: 2, stream: true }));
    act(() => socket.emit('message_stream', frame(' and goes on')));
    await waitFor(() => expect(screen.getByText('A long answer that stops and goes on')).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
  });

  it('Rewrite this answer: the next prompt reworks the last answer (learnFromPrevResponse), once', async () => {
    const last = message({ message_id: 2, content: 'A long answer about roses.' });
    const user = message({ message_id: 3, role: 'user', content: 'Make it shorter', finish_reason: null });
    const pending = message({ message_id: 4, content: null, status: 'pending', finish_reason: null });
    const { calls } = renderConversation([message({ message_id: 1, role: 'user', content: 'Roses?' }), last], {
      'POST /api/messages': () => ({ status: 201, body: { user_message: user, assistant_message: pending } }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Rewrite this answer' }));
    expect(await screen.findByTestId('rework-chip')).toHaveTextContent('Your next message rewrites the last answer');
    const input = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.change(input, { target: { value: 'Make it shorter' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ stream: true, content: 'Make it shorter', conversation_id: 9, learnFromPrevResponse: true }),
    );
    // Used once: the chip goes and the next prompt is a plain one.
    await waitFor(() => expect(screen.queryByTestId('rework-chip')).toBeNull());
  });

  it('edits and favorites a message', async () => {
    const answer = message({ message_id: 2, content: 'Original answer' });
    const { calls } = renderConversation([message({ message_id: 1, role: 'user', content: 'Q' }), answer], {
      'PUT /api/messages': (init) => ({ body: { ...answer, ...JSON.parse(String(init.body)) } }),
    });
    await screen.findByText('Original answer');
    const row = screen.getAllByTestId('message').find((el) => el.dataset.messageId === '2')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Favorite' }));
    await waitFor(() => expect(within(row).getByRole('button', { name: 'Favorite' })).toHaveAttribute('aria-pressed', 'true'));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ message_id: 2, favorite: true });

    fireEvent.click(within(row).getByRole('button', { name: 'Edit' }));
    const editor = within(row).getByRole('textbox', { name: 'Edit message' });
    fireEvent.change(editor, { target: { value: 'Edited answer' } });
    fireEvent.click(within(row).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(row).getByText('Edited answer')).toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({ message_id: 2, content: 'Edited answer' });
  });

  it('sends the user to /sorry on a premium error (412)', async () => {
    renderConversation([], {
      'POST /api/messages': () => ({ status: 412, body: { error: 'premium_required', message: 'Premium' } }),
    });
    const input = await screen.findByRole('textbox', { name: 'Message' });
    fireEvent.change(input, { target: { value: 'Hello' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/sorry'));
  });

  it('shows Enhance only past 12 characters and replaces the prompt with the enhanced text', async () => {
    const { calls } = renderConversation([], {
      'POST /api/messages': () => ({ status: 202, body: { enhance_id: 'e-1', conversation_id: 9 } }),
    });
    const input = await screen.findByRole('textbox', { name: 'Message' });
    fireEvent.change(input, { target: { value: 'short text' } });
    expect(screen.queryByRole('button', { name: 'Enhance' })).toBeNull();
    fireEvent.change(input, { target: { value: 'write about dogs' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enhance' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ conversation_id: 9, content: 'write about dogs', enhance: true, stream: true }));
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    act(() => socket.emit('message_stream_enhance', { enhance_id: 'e-1', conversation_id: 9, content: 'Write a ', stream: true, isThread: false }));
    await waitFor(() => expect(input).toHaveValue('Write a '));
    act(() => socket.emit('message_stream_enhance_end', { enhance_id: 'e-1', conversation_id: 9, content: 'Write a warm post about dogs.', stream: true, isThread: false }));
    await waitFor(() => expect(input).toHaveValue('Write a warm post about dogs.'));
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
  });

  it('loads older pages above the newest one until the start, then shows the max-messages badge', async () => {
    const older = [message({ message_id: 1, role: 'user', content: 'First prompt' }), message({ message_id: 2, content: 'First answer' })];
    const newest = [message({ message_id: 3, role: 'user', content: 'Second prompt' }), message({ message_id: 4, content: 'Second answer' })];
    const { calls } = renderConversation([], {
      'GET /api/messages/conversation/9': (_init, url) =>
        new URL(url, 'http://x').searchParams.get('cursor') === '3'
          ? { body: { messages: [...older].reverse(), next_cursor: null } }
          : { body: { messages: [...newest].reverse(), next_cursor: 3 } },
    });
    // The first page does not fill the view, so the older one is requested with the cursor.
    expect(await screen.findByTestId('max-messages')).toHaveTextContent('Start of the conversation · 4 messages');
    expect(screen.getAllByTestId('message').map((el) => el.dataset.messageId)).toEqual(['1', '2', '3', '4']);
    const pages = calls.filter((c) => c.url.includes('/api/messages/conversation/9')).map((c) => new URL(c.url, 'http://x').searchParams.get('cursor'));
    expect(pages).toEqual([null, '3']);
  });

  it('shows the not-found state for a conversation the user may not see', async () => {
    stubFetch({});
    renderScreen(
      <Suspense fallback={null}>
        <ConversationPage />
      </Suspense>,
      { route: '/conversations/77', path: '/conversations/:conversationId', session: fakeSession(buildUser()) },
    );
    expect(await screen.findByTestId('conversation-not-found')).toHaveTextContent('Conversation not found');
  });
});
