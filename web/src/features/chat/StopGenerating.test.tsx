// Stop generating on the conversation screen (issue 30 item 1): while an answer is written Send turns into
// Stop (and Esc stops it from the screen); the stopped answer keeps its text, shows a "Stopped" mark and
// Continue, and Send is back at once. Another tab's stop arrives as the usual end event. EN and ES.
import type { Message } from '@pluma/common/messages-api';
import { act, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n';
import { buildConversation, buildMessage } from '../../test/messages';
import { setLanguage, stubFetch } from '../../test/render';
import { setupFakeSocket } from '../../test/fake-socket';
import { conversationRenderer } from './testing/render-conversation';
import chatEn from '../../i18n/chat.en.json';
import chatEs from '../../i18n/chat.es.json';

configure({ asyncUtilTimeout: 5000 });
const socket = setupFakeSocket();
const { default: ConversationPage } = await import('./ConversationPage');

const conversation = buildConversation();
const message = (overrides: Partial<Message> & Pick<Message, 'message_id'>) => buildMessage({ conversation_id: conversation.conversation_id, ...overrides });
const prompt = message({ message_id: 1, role: 'user', content: 'Tell me about roses' });
const writing = message({ message_id: 2, content: 'Roses are', status: 'streaming', finish_reason: null });
const stopped = message({ message_id: 2, content: 'Roses are lovely', status: 'done', finish_reason: 'stopped', words_charged: 3 });

const renderOn = conversationRenderer(ConversationPage, conversation);
const renderConversation = (messages: Message[], extra: Parameters<typeof stubFetch>[0] = {}) =>
  renderOn(messages, { 'POST /api/messages/2/stop': () => ({ body: stopped }), ...extra });

const answerRow = () => screen.getAllByTestId('message').find((el) => el.dataset.messageId === '2')!;
const stopCalls = (calls: { method: string; url: string }[]) => calls.filter((c) => c.method === 'POST' && c.url.includes('/api/messages/2/stop'));

beforeAll(async () => {
  await i18n.loadNamespaces('chat');
  await i18n.loadLanguages('es');
});

describe.each([
  ['en', chatEn],
  ['es', chatEs],
] as const)('stop generating (%s)', (lang, t) => {
  beforeEach(async () => {
    await setLanguage(lang);
  });

  it('Send turns into Stop while an answer is written; Stop keeps its text, marks it stopped, offers Continue and gives Send back', async () => {
    const { calls, session } = renderConversation([prompt, writing]);
    const input = await screen.findByRole('textbox', { name: t.prompt.label });
    await screen.findByText('Roses are');
    expect(screen.queryByRole('button', { name: t.prompt.send })).toBeNull();
    // The box is free: the next prompt can be typed while the answer is written.
    fireEvent.change(input, { target: { value: 'And tulips?' } });
    expect(input).toHaveValue('And tulips?');

    fireEvent.click(screen.getByRole('button', { name: t.prompt.stop }));
    await waitFor(() => expect(stopCalls(calls)).toHaveLength(1));
    // The server's final copy shows at once: the text kept, the mark, Continue; Send is back.
    await waitFor(() => expect(answerRow()).toHaveAttribute('data-status', 'done'));
    expect(answerRow()).toHaveTextContent('Roses are lovely');
    expect(within(answerRow()).getByTestId('stopped-mark')).toHaveTextContent(t.message.stopped);
    expect(within(answerRow()).getByRole('button', { name: t.message.continue })).toBeEnabled();
    expect(screen.queryByTestId('typing-indicator')).toBeNull();
    expect(screen.queryByRole('button', { name: t.prompt.stop })).toBeNull();
    expect(screen.getByRole('button', { name: t.prompt.send })).toBeEnabled();
    expect(input).toHaveValue('And tulips?');
    // The words balance is read again (it was charged for the words written).
    expect(session.reloadUser).toHaveBeenCalled();
  });

  it('Esc in the prompt box stops the answer; Esc does nothing once nothing is written', async () => {
    const { calls } = renderConversation([prompt, writing]);
    const input = await screen.findByRole('textbox', { name: t.prompt.label });
    await screen.findByText('Roses are');
    fireEvent.keyDown(input, { key: 'Escape' });
    await waitFor(() => expect(stopCalls(calls)).toHaveLength(1));
    await waitFor(() => expect(within(answerRow()).getByTestId('stopped-mark')).toBeInTheDocument());
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(stopCalls(calls)).toHaveLength(1);
  });

  it("another tab's stop arrives as the end event: the same mark, and Send is back", async () => {
    const { calls } = renderConversation([prompt, writing]);
    await screen.findByText('Roses are');
    expect(screen.getByRole('button', { name: t.prompt.stop })).toBeInTheDocument();
    act(() =>
      socket.emit('message_stream_end', { message_id: 2, conversation_id: 9, content: stopped.content, finish_reason: 'stopped', stream: true, isThread: false, message: stopped }),
    );
    await waitFor(() => expect(within(answerRow()).getByTestId('stopped-mark')).toHaveTextContent(t.message.stopped));
    expect(answerRow()).toHaveTextContent('Roses are lovely');
    expect(screen.getByRole('button', { name: t.prompt.send })).toBeInTheDocument();
    expect(stopCalls(calls)).toHaveLength(0);
  });
});

describe('stop generating: what Esc leaves alone', () => {
  beforeEach(async () => {
    await setLanguage('en');
  });

  it('Esc in a message being edited cancels the edit and does not stop the answer', async () => {
    const { calls } = renderConversation([prompt, writing]);
    await screen.findByText('Roses are');
    const promptRow = screen.getAllByTestId('message').find((el) => el.dataset.messageId === '1')!;
    fireEvent.click(within(promptRow).getByRole('button', { name: chatEn.message.edit }));
    const editor = within(promptRow).getByRole('textbox', { name: chatEn.message.editLabel });
    fireEvent.keyDown(editor, { key: 'Escape' });
    await waitFor(() => expect(within(promptRow).queryByRole('textbox', { name: chatEn.message.editLabel })).toBeNull());
    expect(stopCalls(calls)).toHaveLength(0);
    expect(answerRow()).toHaveAttribute('data-status', 'streaming');
  });

  it('Stop pressed while the prompt is still being sent stops its answer once the server names it', async () => {
    let answerPost: (() => void) | null = null;
    const posted = new Promise<void>((resolve) => (answerPost = resolve));
    const pending = message({ message_id: 2, content: null, status: 'pending', finish_reason: null });
    const { calls, fetchMock } = renderConversation([]);
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input).endsWith('/api/messages') && init?.method === 'POST') {
        await posted;
        return new Response(JSON.stringify({ user_message: prompt, assistant_message: pending }), { status: 201, headers: { 'Content-Type': 'application/json' } });
      }
      return answer(input, init);
    });
    const input = await screen.findByRole('textbox', { name: 'Message' });
    fireEvent.change(input, { target: { value: 'Tell me about roses' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    fireEvent.click(await screen.findByRole('button', { name: chatEn.prompt.stop }));
    expect(stopCalls(calls)).toHaveLength(0);
    answerPost!();
    await waitFor(() => expect(stopCalls(calls)).toHaveLength(1));
    await waitFor(() => expect(within(answerRow()).getByTestId('stopped-mark')).toBeInTheDocument());
  });
});
