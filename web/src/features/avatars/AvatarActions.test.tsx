// The avatar page's refine, sync, chat and file index statuses (spec part 2 §2 "refine … sync", §4 up to 15
// minutes, §7 POST /avatars/refine; issue 13 items 2–3): refine asks first, shows its state from the avatar
// and follows the `avatar_refine` event; a failure says why and keeps the context; a missing key prompts for
// it; sync re-queues the files and their statuses follow; the chat button starts a conversation with the
// avatar; the breadcrumb shows the avatar's name. EN and ES.
import { AVATAR_REFINE_EVENT, type AvatarFile, type AvatarRefine, type AvatarWithFiles } from '@pluma/common/avatars';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { BreadcrumbBar } from '../../app/shell/BreadcrumbBar';
import { i18n } from '../../i18n';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import AvatarPage from './AvatarPage';
import { setupFakeSocket } from '../../test/fake-socket';

const socket = setupFakeSocket();

afterEach(async () => {
  await i18n.changeLanguage('en');
});

const OWNER = { read: true, update: true, delete: true, publish: false, clone: true, add_file: true, refine: true, sync: true };
const READER = { read: true, update: false, delete: false, publish: false, clone: true, add_file: false, refine: false, sync: false };
const refineState = (status: AvatarRefine['status'], extra: Partial<AvatarRefine> = {}): AvatarRefine => ({
  status,
  error_code: null,
  error_message: null,
  updatedAt: status === 'idle' ? null : '2026-01-02T10:00:00.000Z',
  ...extra,
});

function file(index: AvatarFile['index'], overrides: Partial<AvatarFile> = {}): AvatarFile {
  return {
    avatar_file_id: 1,
    file_id: 11,
    openai_file_id: null,
    editable: false,
    file_data: { file_id: 11, name: 'logbook.pdf', type: 'pdf', size: 10 },
    createdAt: '2026-01-01T00:00:00.000Z',
    index,
    abilities: { download: true, edit_text: false, delete: true },
    ...overrides,
  };
}

function avatar(overrides: Partial<AvatarWithFiles> = {}): AvatarWithFiles {
  return {
    avatar_id: 7,
    assistant_id: null,
    name: 'Lighthouse keeper',
    description: '',
    context: 'You keep the lighthouse.',
    public: false,
    user_id: 1,
    organization_id: null,
    super_fetch_assistant: false,
    kind: null,
    author: { name: 'Ana', last_name: 'García' },
    files_count: 0,
    refine: refineState('idle'),
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    abilities: OWNER,
    avatar_files: [],
    ...overrides,
  };
}

const show = () =>
  renderScreen(
    <>
      <BreadcrumbBar />
      <AvatarPage />
    </>,
    { session: fakeSession(buildUser()), route: '/avatars/7', path: '/avatars/:avatarId/*' },
  );

describe('avatar page: refine, sync, chat, file statuses', () => {
  it('refines after asking: queued, then the done event brings the new context; the breadcrumb has the name', async () => {
    let current = avatar();
    const { calls } = stubFetch({
      'GET /api/avatars/7': () => ({ body: current }),
      'POST /api/avatars/refine': () => {
        current = { ...current, refine: refineState('queued') };
        return { status: 202, body: current };
      },
    });
    show();
    expect(await screen.findByTestId('context-text')).toHaveTextContent('You keep the lighthouse.');
    const crumbs = screen.getByTestId('breadcrumbs');
    expect(within(crumbs).getByText('Lighthouse keeper')).toBeInTheDocument();
    expect(within(crumbs).queryByText('#7')).toBeNull();
    expect(screen.queryByTestId('refine-status')).toBeNull();

    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('refine-avatar'));
    const dialog = await screen.findByRole('dialog', { name: 'Refine the context' });
    expect(dialog).toHaveTextContent('up to 15 minutes');
    await user.click(within(dialog).getByRole('button', { name: 'Refine' }));
    expect(await screen.findByTestId('refine-status')).toHaveTextContent('Refine queued');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ avatar_id: 7 });
    expect(screen.getByTestId('refine-avatar')).toBeDisabled();

    current = { ...current, context: 'You keep the northern lighthouse and log the foghorn.', refine: refineState('done'), updatedAt: '2026-01-02T10:00:00.000Z' };
    socket.emit(AVATAR_REFINE_EVENT, { avatar_id: 7, refine: current.refine });
    expect(await screen.findByText('You keep the northern lighthouse and log the foghorn.')).toBeInTheDocument();
    expect(screen.getByTestId('refine-status')).toHaveAttribute('data-status', 'done');
    expect(screen.getByTestId('refine-avatar')).toBeEnabled();
  });

  it('a failed refine says why and that the context was kept', async () => {
    stubFetch({ 'GET /api/avatars/7': () => ({ body: avatar({ refine: refineState('failed', { error_code: 'no_material' }) }) }) });
    show();
    expect(await screen.findByTestId('refine-status')).toHaveTextContent('There is nothing to learn from yet');
    expect(screen.getByTestId('refine-status')).toHaveTextContent('The context was kept.');
  });

  it('shows a provider refusal in its own words, in Spanish', async () => {
    stubFetch({
      'GET /api/avatars/7': () => ({ body: avatar({ refine: refineState('failed', { error_code: 'invalid_api_key', error_message: 'Incorrect API key provided.' }) }) }),
    });
    await setLanguage('es');
    show();
    const status = await screen.findByTestId('refine-status');
    expect(status).toHaveTextContent('El último refinado falló');
    expect(status).toHaveTextContent('Incorrect API key provided. Se conservó el contexto.');
    expect(screen.getByTestId('refine-avatar')).toHaveTextContent('Refinar');
    expect(screen.getByTestId('sync-avatar')).toHaveTextContent('Sincronizar archivos');
    expect(screen.getByTestId('chat-with-avatar')).toHaveTextContent('Chatear con este avatar');
  });

  it('a missing own key (409) prompts to add it in Settings', async () => {
    stubFetch({
      'GET /api/avatars/7': () => ({ body: avatar() }),
      'POST /api/avatars/refine': () => ({ status: 409, body: { error: 'ai_key_required', message: 'Add your AI key.' } }),
    });
    show();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('refine-avatar'));
    await user.click(within(await screen.findByRole('dialog', { name: 'Refine the context' })).getByRole('button', { name: 'Refine' }));
    expect(await screen.findByTestId('ai-key-prompt')).toBeInTheDocument();
    expect(screen.queryByTestId('refine-status')).toBeNull();
  });

  it('sync re-queues the files; each row shows its index status as it changes, with the reason of a failure', async () => {
    const scanned = file({ status: 'failed', progress: 100, failure_reason: 'no_text' }, { avatar_file_id: 2, file_id: 12, file_data: { file_id: 12, name: 'scan.pdf', type: 'pdf', size: 5 } });
    let current = avatar({ avatar_files: [file({ status: 'ready', progress: 100, failure_reason: null }), scanned], files_count: 2 });
    const { calls } = stubFetch({
      'GET /api/avatars/7': () => ({ body: current }),
      'POST /api/avatars/sync': () => {
        const synced = { ...current, avatar_files: [file({ status: 'indexing', progress: 40, failure_reason: null }), scanned] };
        // The next read finds the indexing done.
        current = { ...current, avatar_files: [file({ status: 'ready', progress: 100, failure_reason: null }), scanned] };
        return { status: 202, body: synced };
      },
    });
    show();
    const rows = await screen.findAllByTestId('file-index');
    expect(rows.map((r) => r.getAttribute('data-status'))).toEqual(['ready', 'failed']);
    expect(rows[0]).toHaveTextContent('Ready');
    expect(rows[1]).toHaveTextContent('Failed');
    expect(screen.getByTestId('file-index-reason')).toHaveTextContent('No text found (a scanned document?)');

    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('sync-avatar'));
    await waitFor(() => expect(screen.getAllByTestId('file-index')[0]).toHaveTextContent('Indexing 40%'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ avatar_id: 7 });
    expect(await screen.findByText('The files are being indexed again.')).toBeInTheDocument();
    // While a file is indexing the page reads the avatar again until it is done.
    await waitFor(() => expect(screen.getAllByTestId('file-index')[0]).toHaveAttribute('data-status', 'ready'), { timeout: 5_000 });
  });

  it("the chat button starts a conversation with the avatar and opens it; a public avatar's reader can chat but not refine or sync", async () => {
    const { calls } = stubFetch({
      'GET /api/avatars/7': () => ({ body: avatar({ public: true, abilities: READER, refine: null }) }),
      'POST /api/conversations': () => ({
        status: 201,
        body: { conversation_id: 31, name: 'Lighthouse keeper', model: null, archived: false, tags: '', avatar_id: 7, organization_id: null, file: null, createdAt: '', updatedAt: '', abilities: { read: true, update: true, delete: true, chat: true } },
      }),
    });
    show();
    await screen.findByTestId('read-only-note');
    expect(screen.queryByTestId('refine-avatar')).toBeNull();
    expect(screen.queryByTestId('sync-avatar')).toBeNull();
    await userEvent.setup({ delay: null }).click(screen.getByTestId('chat-with-avatar'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/conversations/31'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Lighthouse keeper', avatar_id: 7 });
  });
});
