// The trainings and outputs panels of the avatar page (issue 13 items 4-5): create, the cost note before
// executing (20–60 USD in English, 20–100 USD in Spanish), live progress from the `training` event, select
// a finished model, delete; outputs generated, filled in by the `output` event, rated, edited, deleted.
import type { Output, ThreadMessage } from '@pluma/common/outputs';
import type { Training } from '@pluma/common/trainings';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import { OutputsPanel } from './OutputsPanel';
import { TrainingsPanel } from './TrainingsPanel';
import { setupFakeSocket } from '../../test/fake-socket';

const socket = setupFakeSocket();

afterEach(async () => {
  await i18n.changeLanguage('en');
});

const ABILITIES = { read: true, update: true, execute: true, sync: false, refine: false, select: false, delete: true };
function training(overrides: Partial<Training> = {}): Training {
  return {
    training_id: 3,
    avatar_id: 7,
    user_id: 1,
    organization_id: null,
    name: 'First run',
    base_model: 'gpt-4o-mini-2024-07-18',
    status: 'draft',
    progress: 0,
    file: null,
    file_id: null,
    examples: null,
    fine_tuned_model: null,
    selected: false,
    polling: false,
    error: null,
    startedAt: null,
    finishedAt: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    abilities: ABILITIES,
    ...overrides,
  };
}
function output(overrides: Partial<Output> = {}): Output {
  return {
    output_id: 5,
    avatar_id: 7,
    training_id: null,
    prompt: 'A tip',
    content: 'Drink water.',
    status: 'done',
    liked: null,
    model: null,
    error_code: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    abilities: { read: true, update: true, rate: true, message: true, delete: true },
    ...overrides,
  };
}
const session = () => fakeSession(buildUser());

describe('trainings panel', () => {
  it('shows the cost note before executing, then live progress to a selectable model', async () => {
    const { calls } = stubFetch({
      'GET /api/trainings': () => ({ body: { trainings: [training()], total: 1 } }),
      'POST /api/trainings/execute': () => ({ body: training({ status: 'queued', polling: true }) }),
      'PUT /api/trainings': () => ({ body: training({ status: 'succeeded', selected: true }) }),
    });
    renderScreen(<TrainingsPanel avatarId={7} />, { session: session() });
    const card = await screen.findByTestId('training-3');
    expect(within(card).getByTestId('training-status')).toHaveTextContent('Not started');
    const user = userEvent.setup({ delay: null });
    await user.click(within(card).getByTestId('execute-training'));
    const dialog = await screen.findByRole('dialog', { name: 'Start this training?' });
    expect(dialog).toHaveTextContent('roughly 20 to 60 USD');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Start training' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ training_id: 3 }));

    socket.emit('training', { training_id: 3, avatar_id: 7, status: 'running', progress: 42, training: training({ status: 'running', progress: 42, polling: true, abilities: { ...ABILITIES, execute: false } }) });
    await waitFor(() => expect(within(screen.getByTestId('training-3')).getByTestId('training-status')).toHaveTextContent('Training'));
    expect(within(screen.getByTestId('training-3')).getByTestId('training-progress')).toBeInTheDocument();
    // Another avatar's event changes nothing here.
    socket.emit('training', { training_id: 3, avatar_id: 8, status: 'failed', progress: 0, training: training({ status: 'failed', avatar_id: 8 }) });
    socket.emit('training', {
      training_id: 3,
      avatar_id: 7,
      status: 'succeeded',
      progress: 100,
      training: training({ status: 'succeeded', progress: 100, fine_tuned_model: 'ft:gpt-4o-mini:org:coach:1', abilities: { ...ABILITIES, execute: false, select: true, refine: true, sync: true } }),
    });
    const done = screen.getByTestId('training-3');
    await waitFor(() => expect(within(done).getByTestId('training-status')).toHaveTextContent('Ready'));
    expect(done).toHaveTextContent('Model: ft:gpt-4o-mini:org:coach:1');
    await user.click(within(done).getByTestId('select-training'));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ training_id: 3, selected: true }));
  });

  it('creates and deletes, and quotes 20 to 100 USD in Spanish', async () => {
    await setLanguage('es');
    const { calls } = stubFetch({
      'GET /api/trainings': () => ({ body: { trainings: [training()], total: 1 } }),
      'POST /api/trainings': () => ({ status: 201, body: training({ training_id: 4, name: 'Nuevo' }) }),
      'DELETE /api/trainings/3': () => ({ body: { deleted: true } }),
    });
    renderScreen(<TrainingsPanel avatarId={7} />, { session: session() });
    const user = userEvent.setup({ delay: null });
    await user.type(await screen.findByTestId('training-name'), 'Nuevo');
    await user.click(screen.getByTestId('create-training'));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ avatar_id: 7, name: 'Nuevo' }));
    await user.click(within(screen.getByTestId('training-3')).getByTestId('execute-training'));
    expect(await screen.findByRole('dialog', { name: '¿Iniciar este entrenamiento?' })).toHaveTextContent('de 20 a 100 USD');
    await user.click(screen.getByRole('button', { name: /cancel/i }));
    await user.click(within(screen.getByTestId('training-3')).getByTestId('delete-training'));
    const dialog = await screen.findByRole('dialog', { name: 'Eliminar entrenamiento' });
    await user.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url.endsWith('/api/trainings/3'))).toBe(true));
  });

  it('shows the empty state', async () => {
    stubFetch({ 'GET /api/trainings': () => ({ body: { trainings: [], total: 0 } }) });
    renderScreen(<TrainingsPanel avatarId={7} />, { session: session() });
    expect(await screen.findByText('No trainings yet.')).toBeInTheDocument();
  });
});

describe('outputs panel', () => {
  it('generates (filled in by the output event), rates, edits and deletes', async () => {
    const { calls } = stubFetch({
      'GET /api/outputs/avatar/7': () => ({ body: { outputs: [output({ output_id: 6, content: null, status: 'pending', abilities: { read: true, update: false, rate: false, message: false, delete: true } })], total: 1 } }),
      'POST /api/outputs/generate': () => ({ status: 202, body: { outputs: [output({ output_id: 6, content: null, status: 'pending' })] } }),
      'POST /api/outputs/rate': () => ({ body: output({ output_id: 6, content: 'Rest on Sundays.', liked: true }) }),
      'PUT /api/outputs': () => ({ body: output({ output_id: 6, content: 'Rest on Sundays, always.', liked: true }) }),
      'DELETE /api/outputs/6': () => ({ body: { deleted: true } }),
    });
    renderScreen(<OutputsPanel avatarId={7} />, { session: session() });
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByTestId('output-prompt'), 'A tip about rest');
    await user.click(screen.getByTestId('generate-output'));
    await waitFor(() => expect(calls.find((c) => c.url.endsWith('/generate'))?.body).toEqual({ assistant_id: 7, messages: ['A tip about rest'] }));
    expect(await screen.findByText('Writing…')).toBeInTheDocument();
    socket.emit('output', { output_id: 6, avatar_id: 7, content: 'Rest on Sundays.', isThread: false, stream: false, output: output({ output_id: 6, content: 'Rest on Sundays.' }) });
    const card = await screen.findByTestId('output-6');
    await waitFor(() => expect(within(card).getByTestId('output-content')).toHaveTextContent('Rest on Sundays.'));
    await user.click(within(card).getByTestId('like-output'));
    await waitFor(() => expect(calls.find((c) => c.url.endsWith('/rate'))?.body).toEqual({ output_id: 6, liked: true }));
    await waitFor(() => expect(within(screen.getByTestId('output-6')).getByTestId('like-output')).toHaveAttribute('aria-pressed', 'true'));
    await user.click(within(screen.getByTestId('output-6')).getByTestId('edit-output'));
    const box = screen.getByTestId('output-edit');
    await user.clear(box);
    expect(screen.getByTestId('save-output')).toBeDisabled();
    await user.type(box, 'Rest on Sundays, always.');
    await user.click(screen.getByTestId('save-output'));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ output_id: 6, content: 'Rest on Sundays, always.' }));
    await user.click(within(screen.getByTestId('output-6')).getByTestId('delete-output'));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
  });

  it('opens an output thread with its last 10 messages, loads 10 more per scroll to the top (throttled 120 ms) and sends a follow-up', async () => {
    const message = (id: number): ThreadMessage => ({ output_message_id: id, output_id: 6, role: id % 2 ? 'assistant' : 'user', content: `m${id}`, isThread: true, createdAt: '2025-01-01T00:00:00.000Z' });
    // Pages newest first, as GET /messages/thread/{id}[/{x}] gives them.
    const page = (from: number, to: number, next: number | null) => ({ body: { output_id: 6, messages: Array.from({ length: to - from + 1 }, (_, i) => message(to - i)), next_cursor: next } });
    const { calls } = stubFetch({
      'GET /api/outputs/avatar/7': () => ({ body: { outputs: [output({ output_id: 6 })], total: 1 } }),
      'GET /api/messages/thread/6': () => page(41, 50, 41),
      'GET /api/messages/thread/6/41': () => page(31, 40, 31),
      'GET /api/messages/thread/6/31': () => page(29, 30, null),
      'POST /api/outputs/message': () => ({ status: 202, body: { ...output({ output_id: 6 }), thread: [] } }),
    });
    const threadCalls = () => calls.filter((c) => c.url.includes('/api/messages/thread/')).map((c) => c.url.split('/api')[1]);
    renderScreen(<OutputsPanel avatarId={7} />, { session: session() });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('toggle-thread'));
    await waitFor(() => expect(screen.getAllByTestId('thread-message')).toHaveLength(10));
    const texts = () => screen.getAllByTestId('thread-message').map((m) => m.textContent);
    expect(texts()[0]).toContain('m41');
    expect(texts()[9]).toContain('m50');

    const clock = vi.spyOn(Date, 'now').mockReturnValue(10_000);
    fireEvent.scroll(screen.getByTestId('thread-scroll'), { target: { scrollTop: 0 } });
    await waitFor(() => expect(screen.getAllByTestId('thread-message')).toHaveLength(20));
    expect(texts()[0]).toContain('m31');
    // Another scroll within 120 ms of the last load asks for nothing; after it, the next page comes.
    clock.mockReturnValue(10_100);
    fireEvent.scroll(screen.getByTestId('thread-scroll'), { target: { scrollTop: 0 } });
    expect(threadCalls()).toEqual(['/messages/thread/6', '/messages/thread/6/41']);
    clock.mockReturnValue(10_130);
    fireEvent.scroll(screen.getByTestId('thread-scroll'), { target: { scrollTop: 0 } });
    await waitFor(() => expect(screen.getAllByTestId('thread-message')).toHaveLength(22));
    clock.mockReturnValue(20_000);
    // Nothing older is left: no more requests.
    fireEvent.scroll(screen.getByTestId('thread-scroll'), { target: { scrollTop: 0 } });
    expect(threadCalls()).toEqual(['/messages/thread/6', '/messages/thread/6/41', '/messages/thread/6/31']);
    clock.mockRestore();

    await user.type(screen.getByTestId('thread-input'), 'Make it shorter');
    await user.click(screen.getByTestId('thread-send'));
    await waitFor(() => expect(calls.find((c) => c.url.endsWith('/outputs/message'))?.body).toEqual({ output_id: 6, content: 'Make it shorter' }));
    // The answer arrives with `thread_messages`: the thread is read again from its newest page.
    const before = threadCalls().length;
    socket.emit('thread_messages', { output_id: 6, avatar_id: 7, isThread: true, threadMessages: [] });
    await waitFor(() => expect(threadCalls().length).toBeGreaterThan(before));
  });
});
