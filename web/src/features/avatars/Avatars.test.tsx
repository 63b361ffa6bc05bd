// The avatars screens (spec part 2 §2 "Avatars and trainings", §5, §6, §9; issue 13 item 2): the list with
// search and add (the prompt for a missing own key), the community list, the avatar page's context card
// (edit, public toggle only for admins), files (shortened names, actions by abilities), clone and combine.
import type { AvatarFile, AvatarWithFiles } from '@pluma/common/avatars';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import AvatarPage from './AvatarPage';
import AvatarsPage from './AvatarsPage';

afterEach(async () => {
  await i18n.changeLanguage('en');
});

const OWNER = { read: true, update: true, delete: true, publish: false, clone: true, add_file: true, refine: true, sync: true };
const READER = { read: true, update: false, delete: false, publish: false, clone: true, add_file: false, refine: false, sync: false };
const IDLE = { status: 'idle' as const, error_code: null, error_message: null, updatedAt: null };

function avatar(overrides: Partial<AvatarWithFiles> = {}): AvatarWithFiles {
  return {
    avatar_id: 7,
    assistant_id: null,
    name: 'Coach',
    description: 'Fitness tips',
    context: 'You are a coach.',
    public: false,
    user_id: 1,
    organization_id: null,
    super_fetch_assistant: false,
    kind: null,
    author: { name: 'Ana', last_name: 'García' },
    files_count: 0,
    refine: IDLE,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    abilities: OWNER,
    avatar_files: [],
    ...overrides,
  };
}

function file(overrides: Partial<AvatarFile> & { name?: string } = {}): AvatarFile {
  const { name = 'handbook.pdf', ...rest } = overrides;
  return {
    avatar_file_id: 1,
    file_id: 11,
    openai_file_id: null,
    editable: false,
    file_data: { file_id: 11, name, type: 'pdf', size: 10 },
    createdAt: '2025-01-01T00:00:00.000Z',
    index: { status: 'ready', progress: 100, failure_reason: null },
    abilities: { download: true, edit_text: false, delete: true },
    ...rest,
  };
}

const session = () => fakeSession(buildUser());

describe('/avatars', () => {
  it('lists the own avatars, searches, switches to the community list', async () => {
    const { calls } = stubFetch({
      'GET /api/avatars': () => ({ body: { avatars: [avatar()], total: 1 } }),
      'GET /api/avatars/public/all': () => ({ body: { avatars: [avatar({ avatar_id: 9, name: 'Shared chef', public: true, abilities: READER })], total: 1 } }),
    });
    renderScreen(<AvatarsPage />, { session: session(), route: '/avatars' });
    expect(await screen.findByText('Coach')).toBeInTheDocument();
    expect(screen.getByText('0 files')).toBeInTheDocument();
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByLabelText('Search avatars'), 'coa');
    await waitFor(() => expect(calls.some((c) => c.url.includes('/api/avatars?query=coa'))).toBe(true));
    await user.click(screen.getByText('Community'));
    expect(await screen.findByText('Shared chef')).toBeInTheDocument();
    expect(screen.getByText('By Ana García')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/avatars?list=community');
  });

  it('shows the empty state, and the add form checks the context and prompts for the missing key', async () => {
    const { calls } = stubFetch({
      'GET /api/avatars': () => ({ body: { avatars: [], total: 0 } }),
      'POST /api/avatars': () => ({ status: 409, body: { error: 'ai_key_required', message: 'Avatars need your own AI provider API key. Add it in Settings first.' } }),
    });
    renderScreen(<AvatarsPage />, { session: session(), route: '/avatars' });
    expect(await screen.findByTestId('avatars-empty')).toHaveTextContent("You don't have any avatars yet.");
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('add-avatar'));
    const dialog = await screen.findByRole('dialog', { name: 'New avatar' });
    await user.type(within(dialog).getByTestId('avatar-name'), 'Writer');
    await user.click(within(dialog).getByTestId('avatar-create'));
    expect(await within(dialog).findByText("The input can't be empty")).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await user.type(within(dialog).getByTestId('avatar-context'), 'Warm and short.');
    await user.click(within(dialog).getByTestId('avatar-create'));
    // The 409 is said in the modal (issue 30 item 3), announced, with the way to Settings; the modal stays open.
    const prompt = await within(dialog).findByRole('alert');
    expect(prompt).toHaveAttribute('data-testid', 'ai-key-prompt');
    expect(prompt).toHaveTextContent('An AI key is needed');
    expect(prompt).toHaveTextContent('Avatars need your own AI provider API key');
    expect(within(prompt).getByRole('link', { name: 'Add it in Settings' })).toHaveAttribute('href', '/settings');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Writer', description: '', context: 'Warm and short.' });
    // Next to the button pressed: after the fields, before Create.
    const create = within(dialog).getByTestId('avatar-create');
    expect(prompt.compareDocumentPosition(create) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(dialog).getByTestId('avatar-context').compareDocumentPosition(prompt) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('says the missing key in Spanish in the creation modal, with the link to Settings', async () => {
    stubFetch({
      'GET /api/avatars': () => ({ body: { avatars: [], total: 0 } }),
      'POST /api/avatars': () => ({ status: 409, body: { error: 'ai_key_required', message: 'Los avatares necesitan tu propia clave de API de un proveedor de IA. Agrégala primero en Configuración.' } }),
    });
    await setLanguage('es');
    renderScreen(<AvatarsPage />, { session: session(), route: '/avatars' });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('add-avatar'));
    const dialog = await screen.findByRole('dialog', { name: 'Nuevo avatar' });
    await user.type(within(dialog).getByTestId('avatar-name'), 'Redactora');
    await user.type(within(dialog).getByTestId('avatar-context'), 'Cálida y breve.');
    await user.click(within(dialog).getByTestId('avatar-create'));
    const prompt = await within(dialog).findByRole('alert');
    expect(prompt).toHaveTextContent('Se necesita una clave de IA');
    expect(prompt).toHaveTextContent('Los avatares necesitan tu propia clave de API');
    expect(within(prompt).getByRole('link', { name: 'Agrégala en Configuración' })).toHaveAttribute('href', '/settings');
  });

  it('speaks Spanish', async () => {
    stubFetch({ 'GET /api/avatars': () => ({ body: { avatars: [], total: 0 } }) });
    await setLanguage('es');
    renderScreen(<AvatarsPage />, { session: session(), route: '/avatars' });
    expect(await screen.findByTestId('avatars-empty')).toHaveTextContent('Aún no tienes avatares.');
    expect(screen.getByRole('button', { name: 'Agregar avatar' })).toBeInTheDocument();
  });
});

describe('/avatars/{id}', () => {
  const show = () => renderScreen(<AvatarPage />, { session: session(), route: '/avatars/7', path: '/avatars/:avatarId/*' });

  it('edits the context (not empty), shows files with names shortened after 30 characters, and deletes one', async () => {
    const longName = 'a-very-long-file-name-for-the-handbook-2025.pdf';
    let current = avatar({ avatar_files: [file({ name: longName })], files_count: 1 });
    const { calls } = stubFetch({
      'GET /api/avatars/7': () => ({ body: current }),
      'PUT /api/avatars': (init) => {
        current = { ...current, ...JSON.parse(String(init.body)), updatedAt: '2025-01-02T00:00:00.000Z' };
        return { body: current };
      },
      'DELETE /api/avatars/7/files/11': () => {
        current = { ...current, avatar_files: [], files_count: 0 };
        return { body: { deleted: true } };
      },
    });
    show();
    expect(await screen.findByTestId('context-text')).toHaveTextContent('You are a coach.');
    expect(screen.queryByTestId('public-toggle')).toBeNull();
    expect(screen.queryByTestId('read-only-note')).toBeNull();
    expect(screen.getByTestId('file-name')).toHaveTextContent(`${longName.slice(0, 30)}…`);

    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('edit-context'));
    await user.clear(screen.getByTestId('context-input'));
    await user.click(screen.getByTestId('save-context'));
    expect(await screen.findByText("The input can't be empty")).toBeInTheDocument();
    await user.type(screen.getByTestId('context-input'), 'A new voice');
    await user.click(screen.getByTestId('save-context'));
    expect(await screen.findByTestId('context-text')).toHaveTextContent('A new voice');
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ avatar_id: 7, context: 'A new voice' });

    await user.click(screen.getByTestId('delete-file'));
    const confirm = await screen.findByRole('dialog', { name: 'Delete file' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByTestId('files-empty')).toBeInTheDocument();
  });

  it('creates a blank editable .txt file and opens it to write in (issue 30 item 20), in English and Spanish', async () => {
    for (const lang of ['en', 'es'] as const) {
      await setLanguage(lang);
      let current = avatar();
      const blank = file({ name: 'Weekly plan.txt', editable: true, file_id: 21, avatar_file_id: 2, abilities: { download: true, edit_text: true, delete: true } });
      blank.file_data = { ...blank.file_data, file_id: 21, type: 'txt' };
      blank.index = { status: 'none', progress: 0, failure_reason: null };
      const { calls } = stubFetch({
        'GET /api/avatars/7': () => ({ body: current }),
        'POST /api/avatars/7/files/text': () => {
          current = { ...current, avatar_files: [blank], files_count: 1 };
          return { status: 201, body: blank };
        },
        'GET /api/avatars/7/files/21': () => ({}),
        'PUT /api/avatars/7/files/21/text': () => ({ body: blank }),
      });
      const screenRender = show();
      const words = lang === 'en' ? { tab: 'Editable files', button: 'New text file', name: 'File name', create: 'Create and edit' } : { tab: 'Archivos editables', button: 'Nuevo archivo de texto', name: 'Nombre del archivo', create: 'Crear y editar' };
      const user = userEvent.setup({ delay: null });
      await user.click(await screen.findByRole('tab', { name: words.tab }));
      await user.click(await screen.findByRole('button', { name: words.button }));
      const dialog = await screen.findByRole('dialog', { name: words.button });
      expect(within(dialog).getByRole('button', { name: words.create })).toBeDisabled();
      await user.type(within(dialog).getByRole('textbox', { name: words.name }), 'Weekly plan');
      await user.click(within(dialog).getByRole('button', { name: words.create }));
      // The editor opens on the new, empty file.
      const editor = await screen.findByTestId('file-text');
      await waitFor(() => expect(editor).not.toBeDisabled());
      expect(editor).toHaveValue('');
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Weekly plan' });
      await user.type(editor, 'Monday: long run.');
      await user.click(screen.getByTestId('save-file-text'));
      await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ content: 'Monday: long run.' }));
      expect(await screen.findByTestId('file-name')).toHaveTextContent('Weekly plan.txt');
      screenRender.unmount();
    }
  });

  it('a public avatar of someone else is read-only: no edit, no download, no delete, but clone (name required)', async () => {
    stubFetch({
      'GET /api/avatars/7': () => ({
        body: avatar({ public: true, abilities: READER, avatar_files: [file({ abilities: { download: false, edit_text: false, delete: false } })] }),
      }),
      'POST /api/avatars/clone': () => ({ body: avatar({ avatar_id: 12, name: 'Mine' }) }),
    });
    show();
    expect(await screen.findByTestId('read-only-note')).toHaveTextContent('This avatar is shared by Ana García');
    expect(screen.queryByTestId('edit-context')).toBeNull();
    expect(screen.queryByTestId('delete-avatar')).toBeNull();
    expect(screen.queryByTestId('download-file')).toBeNull();
    expect(screen.queryByTestId('delete-file')).toBeNull();
    expect(screen.queryByTestId('upload-file')).toBeNull();

    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('clone-avatar'));
    const dialog = await screen.findByRole('dialog', { name: 'Clone avatar' });
    await user.click(within(dialog).getByTestId('clone-submit'));
    expect(await within(dialog).findByText("The input can't be empty")).toBeInTheDocument();
    await user.type(within(dialog).getByTestId('clone-name'), 'Mine');
    await user.click(within(dialog).getByTestId('clone-submit'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/avatars/12'));
  });

  it('admins get the public toggle; combine goes to the new avatar', async () => {
    const { calls } = stubFetch({
      'GET /api/avatars/7': () => ({ body: avatar({ abilities: { ...OWNER, publish: true } }) }),
      'PUT /api/avatars': () => ({ body: avatar({ public: true, abilities: { ...OWNER, publish: true } }) }),
      'GET /api/avatars': () => ({ body: { avatars: [avatar(), avatar({ avatar_id: 8, name: 'Chef' })], total: 2 } }),
      'POST /api/avatars/combine': () => ({ body: avatar({ avatar_id: 20, name: 'Both' }) }),
    });
    show();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('public-toggle'));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ avatar_id: 7, public: true }));

    await user.click(screen.getByTestId('combine-avatar'));
    const dialog = await screen.findByRole('dialog', { name: 'Combine avatars' });
    await waitFor(() => expect(within(dialog).getByRole('option', { name: 'Chef' })).toBeInTheDocument());
    await user.selectOptions(within(dialog).getByTestId('combine-with'), '8');
    await user.type(within(dialog).getByTestId('combine-name'), 'Both');
    await user.click(within(dialog).getByTestId('combine-submit'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/avatars/20'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ target_avatar_id: 7, selected_avatar_id: 8, name: 'Both' });
  });

  it('another user\'s avatar (404) says so', async () => {
    stubFetch({});
    show();
    expect(await screen.findByTestId('avatar-not-found')).toHaveTextContent('This avatar does not exist or is not yours.');
  });
});
