// The campaign document page (spec part 2 §2 "Campaign document page", §4 "Campaign document: document view to
// edit view after the generate modal", §6): the linked document's name and its stored HTML read-only (sanitized
// again on render), a Back link; the Document/Edit toggle; for an editor (the server's abilities) the editor on
// the page autosaving through the campaign (PUT /documents?campaign_id=); 'Generate Document' — the two-step
// modal (the campaign's templates with their fields, Next; an avatar, Generate; the empty states), then the
// edit view with the answer streaming in; for a Member an unsaved copy with the read-only notice, Word of the
// copy and 'Save as my document' (a Personal document, opened in Personal); the not-shared message; EN and ES.
// BlockNote needs layout APIs jsdom lacks: the editor is replaced at its module boundary (./DocumentEditor) by
// a fake block list (testing/fake-stream-editor.ts); the real one runs in e2e/campaign-document.e2e.test.ts.
import type { DocumentBlock, DocumentRecord } from '@pluma/common/documents';
import type { DocumentGeneration } from '@pluma/common/documents-generate';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useEffect, useRef, useState } from 'react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { organizationStore } from '../../api/organization';
import { i18n } from '../../i18n';
import { BreadcrumbBar } from '../../app/shell/BreadcrumbBar';
import { buildUser, fakeSession, renderScreen, stubFetch, stubObjectUrls } from '../../test/render';
import { setupFakeDocumentEditor } from './testing/fake-document-editor';
import { FakeStreamEditor } from './testing/fake-stream-editor';
import { setupFakeSocket } from '../../test/fake-socket';

const socket = setupFakeSocket();

const fake = { stream: null as FakeStreamEditor | null };

// The editor is this file's FakeEditor below, drawn through the shared mock (testing/fake-document-editor.tsx).
vi.mock('./DocumentEditor', () => import('./testing/fake-document-editor'));

// Every edit of the block list is a change, as in BlockNote.
class LiveEditor extends FakeStreamEditor {
  constructor(
    texts: string[],
    private readonly changed: () => void,
  ) {
    super(texts);
  }
  override insertBlocks(...args: Parameters<FakeStreamEditor['insertBlocks']>) {
    const inserted = super.insertBlocks(...args);
    this.changed();
    return inserted;
  }
  override replaceBlocks(...args: Parameters<FakeStreamEditor['replaceBlocks']>) {
    const replaced = super.replaceBlocks(...args);
    this.changed();
    return replaced;
  }
  override removeBlocks(...args: Parameters<FakeStreamEditor['removeBlocks']>) {
    const removed = super.removeBlocks(...args);
    this.changed();
    return removed;
  }
}
const textOf = (block: DocumentBlock) => (Array.isArray(block.content) ? block.content.map((c) => String((c as { text?: string }).text ?? '')).join('') : '');
type Handle = { read: () => { blocks: DocumentBlock[]; content: string }; appendMarkdown: (markdown: string) => void; stream: FakeStreamEditor };
function FakeEditor({ initialBlocks, onReady, onChange }: { initialBlocks: DocumentBlock[]; onReady: (h: Handle) => void; onChange: () => void }) {
  const changed = useRef(onChange);
  useEffect(() => {
    changed.current = onChange;
  });
  // eslint-disable-next-line react-hooks/refs -- read on edits, after render (as BlockNote calls onChange)
  const [stream] = useState(() => new LiveEditor([...initialBlocks.map(textOf), ''], () => changed.current()));
  useEffect(() => {
    fake.stream = stream;
  }, [stream]);
  useEffect(() => {
    onReady({
      read: () => {
        const texts = stream.blocks.map((b) => b.content.map((c) => c.text).join('')).filter(Boolean);
        return {
          blocks: texts.map((text): DocumentBlock => ({ type: 'paragraph', content: [{ type: 'text', text, styles: {} }], children: [] })),
          content: texts.map((text) => `<p>${text}</p>`).join(''),
        };
      },
      appendMarkdown: () => undefined,
      stream,
    });
  }, [onReady, stream]);
  return (
    <button
      type="button"
      data-testid="fake-editor"
      onClick={() => {
        // A keystroke: one more block of text.
        stream.blocks.splice(stream.blocks.length - 1, 0, stream.block('Typed'));
        onChange();
      }}
    >
      {stream.text}
    </button>
  );
}
setupFakeDocumentEditor(FakeEditor);

const { default: CampaignDocumentPage } = await import('./CampaignDocumentPage');

beforeAll(async () => {
  await i18n.loadNamespaces(['documents', 'templates']);
  await i18n.loadLanguages('es');
});
beforeEach(() => {
  window.localStorage.clear();
  organizationStore.set({ organization_id: 5, name: 'Acme' });
});
afterEach(async () => {
  organizationStore.set(null);
  await i18n.changeLanguage('en');
});

const READER = { edit: false, delete: false, export: false };
const EDITOR = { edit: true, delete: false, export: false };
const record = (overrides: Partial<DocumentRecord> = {}): DocumentRecord => ({
  document_id: 3,
  name: 'Launch brief',
  tags: [],
  organization_id: 5,
  user_id: 9,
  characters: 5,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
  abilities: READER,
  content: '<h1>Goals</h1><p>Hello <img src="x" onerror="alert(1)"></p><script>alert(2)</script>',
  blocks: [{ type: 'paragraph', content: [{ type: 'text', text: 'Goals', styles: {} }], children: [] }],
  ...overrides,
});
const generationOf = (overrides: Partial<DocumentGeneration> = {}): DocumentGeneration => ({
  generation_id: 50,
  document_id: 3,
  kind: 'template',
  status: 'streaming',
  content: '',
  error_code: null,
  applied: false,
  created_at: '2026-01-02T00:00:00.000Z',
  updated_at: '2026-01-02T00:00:00.000Z',
  ...overrides,
});
const field = (name: string, order: number, type: 'text' | 'select' = 'text', options: string[] = []) => ({ name, label: name, type, options, order, value: '', isValidField: true });
const template = { template_id: 31, name: 'Press release', description: 'A release', content: null, fields: [field('product', 1), field('tone', 2, 'select', ['formal', 'casual'])] };
const frame = (delta: string, more: Record<string, unknown> = {}) => ({ generation_id: 50, document_id: 3, delta, done: false, status: 'streaming', error_code: null, ...more });
const at = (route: string) => ({ session: fakeSession(buildUser({ user_id: 7 })), route, path: '/campaign/:campaignId/documents/:documentId' });
const writes = (calls: { method: string; url: string }[]) => calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.url}`);

function routes(doc: DocumentRecord, extra: Parameters<typeof stubFetch>[0] = {}) {
  return stubFetch({
    'GET /api/documents/3/campaigns/12': () => ({ body: doc }),
    'GET /api/campaigns/12/resources': () => ({ body: { resources: [{ resource_id: 31, campaign_id: 12, type: 'template', name: 'Press release', createdAt: '', updatedAt: '' }], total: 1 } }),
    'GET /api/templates/31': () => ({ body: template }),
    'GET /api/avatars': () => ({ body: { avatars: [{ avatar_id: 21, name: 'Copywriter' }], total: 1 } }),
    'POST /api/documents/avatar-output': () => ({ status: 202, body: { generation: generationOf() } }),
    'POST /api/documents/generations/50/applied': () => ({ body: generationOf({ status: 'done', applied: true }) }),
    'PUT /api/documents': (init) => ({ body: { ...doc, ...JSON.parse(String(init.body)), updatedAt: '2026-01-03T00:00:00.000Z' } }),
    'POST /api/documents/doc-converted': () => ({ body: 'docx' }),
    'POST /api/documents': (init) => ({ status: 201, body: { ...doc, ...JSON.parse(String(init.body)), document_id: 77, organization_id: null, user_id: 7, abilities: { edit: true, delete: true, export: true } } }),
    ...extra,
  });
}

/** Through the modal: the template and its fields, Next, the avatar, Generate. */
async function generateThroughModal(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByTestId('campaign-document-generate'));
  const modal = await screen.findByRole('dialog');
  fireEvent.click(await within(modal).findByTestId('generate-document-template'));
  fireEvent.click(await screen.findByRole('option', { name: 'Press release', hidden: true }));
  const fields = await within(modal).findAllByTestId('generate-document-field');
  expect(fields).toHaveLength(2);
  const next = within(modal).getByTestId('generate-document-next');
  expect(next).toBeDisabled();
  await user.type(fields[0], 'Pluma');
  expect(next).toBeDisabled();
  await user.selectOptions(fields[1], 'casual');
  expect(next).toBeEnabled();
  await user.click(next);
  const generate = await within(modal).findByTestId('generate-document-generate');
  expect(generate).toBeDisabled();
  fireEvent.click(await within(modal).findByTestId('generate-document-avatar'));
  fireEvent.click(await screen.findByRole('option', { name: 'Copywriter', hidden: true }));
  expect(generate).toBeEnabled();
  await user.click(generate);
}

describe('campaign document page', { timeout: 30_000 }, () => {
  it('shows the linked document read-only, sanitized, with a Back link, the toggle and Generate Document', async () => {
    const { calls } = routes(record());
    renderScreen(<CampaignDocumentPage />, at('/campaign/12/documents/3'));
    const html = await screen.findByTestId('campaign-document-html');
    expect(screen.getByRole('heading', { level: 1, name: 'Launch brief' })).toBeInTheDocument();
    expect(html.querySelector('h1')).toHaveTextContent('Goals');
    expect(html.innerHTML).not.toContain('script');
    expect(html.innerHTML).not.toContain('onerror');
    expect(screen.getByTestId('campaign-document-back')).toHaveAttribute('href', '/organization/campaigns/12');
    expect(screen.getByTestId('campaign-document-toggle')).toBeInTheDocument();
    expect(screen.getByTestId('campaign-document-generate')).toHaveTextContent('Generate Document');
    expect(calls[0].url).toBe('/api/documents/3/campaigns/12?organization_id=5');
  });

  it('names the campaign and the document in the breadcrumbs; the campaign crumbs lead to the campaign pages (issue 30 item 16)', async () => {
    routes(record(), { 'GET /api/campaigns/12': () => ({ body: { campaign_id: 12, name: 'Spring launch' } }) });
    renderScreen(
      <>
        <BreadcrumbBar />
        <CampaignDocumentPage />
      </>,
      at('/campaign/12/documents/3'),
    );
    const crumbs = await screen.findByTestId('breadcrumbs');
    expect(await within(crumbs).findByRole('link', { name: 'Spring launch' })).toHaveAttribute('href', '/organization/campaigns/12');
    expect(within(crumbs).getByRole('link', { name: 'Campaigns' })).toHaveAttribute('href', '/organization/campaigns');
    expect(await within(crumbs).findByText('Launch brief')).toHaveAttribute('aria-current', 'page');
    expect(within(crumbs).queryByRole('link', { name: 'Documents' })).toBeNull();
    expect(crumbs).not.toHaveTextContent('#');
  });

  it('gives an editor the editor on the page, saving through the campaign; the Document view shows what was saved', async () => {
    const { calls } = routes(record({ abilities: EDITOR }));
    renderScreen(<CampaignDocumentPage />, at('/campaign/12/documents/3'));
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByText('Edit'));
    const editor = await screen.findByTestId('fake-editor');
    expect(screen.queryByTestId('campaign-document-read-only')).toBeNull();
    expect(screen.queryByTestId('campaign-document-download')).toBeNull();
    await user.click(editor);
    expect(screen.getByTestId('campaign-document-save-state')).toHaveAttribute('data-state', 'unsaved');
    await user.click(screen.getByTestId('campaign-document-save'));
    await waitFor(() => expect(screen.getByTestId('campaign-document-save-state')).toHaveAttribute('data-state', 'saved'));
    expect(writes(calls)).toEqual(['PUT /api/documents?campaign_id=12&organization_id=5']);
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({
      document_id: 3,
      name: 'Launch brief',
      blocks: [
        { type: 'paragraph', content: [{ type: 'text', text: 'Goals', styles: {} }], children: [] },
        { type: 'paragraph', content: [{ type: 'text', text: 'Typed', styles: {} }], children: [] },
      ],
      content: '<p>Goals</p><p>Typed</p>',
    });
    await user.click(screen.getByText('Document'));
    expect((await screen.findByTestId('campaign-document-html')).innerHTML).toBe('<p>Goals</p><p>Typed</p>');
    expect(screen.getByTestId('campaign-document-edit-view')).not.toBeVisible();
  });

  it('generates through the two-step modal into an editor: edit view, the answer streamed in, saved to the campaign document and applied', async () => {
    const { calls } = routes(record({ abilities: EDITOR }));
    renderScreen(<CampaignDocumentPage />, at('/campaign/12/documents/3'));
    const user = userEvent.setup({ delay: null });
    await generateThroughModal(user);
    await waitFor(() => expect(calls.some((c) => c.url.startsWith('/api/documents/avatar-output'))).toBe(true));
    // The view moved to edit; the document's text goes as context.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByTestId('campaign-document-edit-view')).toBeVisible();
    expect(calls.find((c) => c.url.startsWith('/api/documents/avatar-output'))!.body).toEqual({
      kind: 'template',
      template_id: 31,
      values: { product: 'Pluma', tone: 'casual' },
      avatar_id: 21,
      campaign_id: 12,
      document_id: 3,
      document_text: 'Goals',
    });
    expect(await screen.findByTestId('campaign-document-generating')).toHaveTextContent(/is looking for an answer\.\.\./);
    act(() => socket.emit('document_output', frame('Pluma launches')));
    await waitFor(() => expect(fake.stream!.text).toContain('Pluma launches'));
    act(() => socket.emit('document_output', frame('', { done: true, status: 'done', content: 'Pluma launches today.' })));
    await waitFor(() => expect(writes(calls)).toEqual(['POST /api/documents/avatar-output?organization_id=5', 'PUT /api/documents?campaign_id=12&organization_id=5', 'POST /api/documents/generations/50/applied?organization_id=5']));
    expect(calls.find((c) => c.method === 'PUT')!.body).toMatchObject({ document_id: 3, content: '<p>Goals</p><p>Pluma launches today.</p>' });
    expect(screen.queryByTestId('campaign-document-generating')).toBeNull();
  });

  it("gives a Member an unsaved copy: the answer streams into it, nothing is saved to the campaign, 'Save as my document' makes a Personal one", async () => {
    const { calls } = routes(record());
    renderScreen(<CampaignDocumentPage />, at('/campaign/12/documents/3'));
    const user = userEvent.setup({ delay: null });
    await generateThroughModal(user);
    expect(await screen.findByTestId('campaign-document-read-only')).toHaveTextContent('This campaign document is read-only for you');
    await waitFor(() => expect(calls.some((c) => c.url.startsWith('/api/documents/avatar-output'))).toBe(true));
    expect(calls.find((c) => c.url.startsWith('/api/documents/avatar-output'))!.body).toMatchObject({ kind: 'template', document_id: 3, campaign_id: 12, avatar_id: 21, document_text: 'Goals' });
    act(() => socket.emit('document_output', frame('', { done: true, status: 'done', content: 'The release.' })));
    await waitFor(() => expect(writes(calls)).toEqual(['POST /api/documents/avatar-output?organization_id=5', 'POST /api/documents/generations/50/applied?organization_id=5']));
    expect(fake.stream!.text).toContain('The release.');

    // Word (.docx) of the copy as it is: converted by the server, not stored.
    const files: Blob[] = [];
    stubObjectUrls((blob) => (files.push(blob), 'blob:x'));
    await user.click(screen.getByTestId('campaign-document-download'));
    await waitFor(() => expect(files).toHaveLength(1));
    expect(calls.find((c) => c.url.startsWith('/api/documents/doc-converted'))!.body).toEqual({
      name: 'Launch brief',
      blocks: [
        { type: 'paragraph', content: [{ type: 'text', text: 'Goals', styles: {} }], children: [] },
        { type: 'paragraph', content: [{ type: 'text', text: 'The release.', styles: {} }], children: [] },
      ],
    });

    await user.click(screen.getByTestId('campaign-document-save-as-mine'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/documents/77'));
    const created = calls.find((c) => c.method === 'POST' && c.url.startsWith('/api/documents?'))!;
    // Personal: organization_id empty in the query (the client adds none) and null in the body.
    expect(created.url).toBe('/api/documents?organization_id=');
    expect(created.body).toEqual({
      name: 'Launch brief',
      organization_id: null,
      blocks: [
        { type: 'paragraph', content: [{ type: 'text', text: 'Goals', styles: {} }], children: [] },
        { type: 'paragraph', content: [{ type: 'text', text: 'The release.', styles: {} }], children: [] },
      ],
      content: '<p>Goals</p><p>The release.</p>',
    });
    expect(organizationStore.get()).toBeNull();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    vi.unstubAllGlobals();
  });

  it('says so when the campaign has no templates, and offers to create an avatar when there is none', async () => {
    routes(record(), {
      'GET /api/campaigns/12/resources': () => ({ body: { resources: [], total: 0 } }),
    });
    renderScreen(<CampaignDocumentPage />, at('/campaign/12/documents/3'));
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('campaign-document-generate'));
    expect(await screen.findByTestId('generate-document-no-templates')).toHaveTextContent('This campaign has no templates yet.');
    expect(screen.getByTestId('generate-document-next')).toBeDisabled();
  });

  it('offers a link to create an avatar when the user has none, in Spanish', async () => {
    await i18n.changeLanguage('es');
    routes(record(), {
      'GET /api/templates/31': () => ({ body: { ...template, fields: [] } }),
      'GET /api/avatars': () => ({ body: { avatars: [], total: 0 } }),
    });
    renderScreen(<CampaignDocumentPage />, at('/campaign/12/documents/3'));
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('campaign-document-generate'));
    expect(screen.getByTestId('campaign-document-generate')).toHaveTextContent('Generar documento');
    const modal = await screen.findByRole('dialog');
    fireEvent.click(await within(modal).findByTestId('generate-document-template'));
    fireEvent.click(await screen.findByRole('option', { name: 'Press release', hidden: true }));
    expect(await within(modal).findByTestId('generate-document-no-fields')).toHaveTextContent('Esta plantilla no tiene campos que rellenar.');
    await user.click(within(modal).getByTestId('generate-document-next'));
    const none = await within(modal).findByTestId('generate-document-no-avatars');
    expect(none).toHaveTextContent('Aún no tienes avatares.');
    expect(within(none).getByRole('link', { name: 'Crear un avatar' })).toHaveAttribute('href', '/avatars');
    expect(within(modal).getByTestId('generate-document-generate')).toBeDisabled();
  });

  it('shows the read-only notice in Spanish, and the not-shared message on a 404', async () => {
    await i18n.changeLanguage('es');
    routes(record());
    const view = renderScreen(<CampaignDocumentPage />, at('/campaign/12/documents/3'));
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByText('Editar'));
    expect(await screen.findByTestId('campaign-document-read-only')).toHaveTextContent('Este documento de campaña es de solo lectura para ti');
    expect(screen.getByTestId('campaign-document-save-as-mine')).toHaveTextContent('Guardar como mi documento');
    view.unmount();
    stubFetch({});
    renderScreen(<CampaignDocumentPage />, at('/campaign/12/documents/4'));
    expect(await screen.findByTestId('campaign-document-error')).toHaveTextContent('Este documento no existe o no se comparte contigo en esta campaña.');
    expect(screen.getByTestId('campaign-document-back')).toHaveTextContent('Volver a la campaña');
  });
});
