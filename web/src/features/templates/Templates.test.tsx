// The templates screens (spec part 2 §2 "Templates", §4, §5, §6, §8, §9; issue 14 item 2): the browser
// (tabs, default sort from templates_default_sort, search, favourites, drill-down with Back, 24 per page,
// the empty texts, 'Unknown Admin Name'), the editor (fields regenerated live, the spec's messages, the
// controls by abilities, delete), and the apply screen (Generate disabled until every field is filled; the
// filled prompt sent to a new conversation or with the avatar; Browse Templates).
import type { Message } from '@pluma/common/messages-api';
import { fillTemplate, parseTemplateFields } from '@pluma/common/rules/template-fields';
import type { Template } from '@pluma/common/templates';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n';
import { buildConversation, buildMessage, buildMessagePage } from '../../test/messages';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch, stubObjectUrls } from '../../test/render';
import { setupFakeSocket } from '../../test/fake-socket';

setupFakeSocket();

const { default: TemplatesPage } = await import('./TemplatesPage');
const { default: TemplateEditorPage } = await import('./TemplateEditorPage');
const { default: ApplyTemplatePage } = await import('./ApplyTemplatePage');

beforeAll(async () => {
  await i18n.loadNamespaces(['templates', 'chat']);
  await i18n.loadLanguages('es');
});
afterEach(async () => {
  await i18n.changeLanguage('en');
});

const OWNER = { edit: true, delete: true, setPublic: false, editPrompt: true, export: true };
const READER = { edit: false, delete: false, setPublic: false, editPrompt: false, export: false };
const CONTENT = 'Write a [Tone: formal/casual/] post of [#Words] words about [topic].';

function template(overrides: Partial<Template> = {}): Template {
  const content = overrides.content === undefined ? CONTENT : overrides.content;
  return {
    template_id: 5,
    name: 'Blog post',
    description: 'A post for the blog',
    content,
    type: 'Blog',
    tags: ['Marketing', 'Social'],
    language: 'en',
    public: false,
    editable: false,
    show_prompt: false,
    user_id: 7,
    organization_id: null,
    favorite: false,
    author: { name: 'Ana', last_name: 'García' },
    fields: parseTemplateFields(content ?? CONTENT).fields,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    usedAt: null,
    abilities: OWNER,
    ...overrides,
  };
}

const page = (templates: Template[], total = templates.length, pageNo = 1) => ({ body: { templates, total, page: pageNo, pageSize: 24 } });
const session = (overrides: Parameters<typeof buildUser>[0] = {}) => fakeSession(buildUser(overrides));
const listCalls = (calls: { method: string; url: string }[]) => calls.filter((c) => c.method === 'GET' && /\/api\/templates(\?|$)/.test(c.url)).map((c) => new URL(c.url, 'http://x').searchParams);

describe('/templates', () => {
  /** 25 templates: a full first page of 24 (or, to keep a test quick, `shown` of them) and one on page 2. */
  const manyPages = (shown = 24) => {
    const many = Array.from({ length: shown }, (_, i) => template({ template_id: 100 + i, name: `Template ${i}` }));
    return stubFetch({
      'GET /api/templates': (_init, url) => {
        const pageNo = Number(new URL(url, 'http://x').searchParams.get('page'));
        return pageNo === 2 ? page([template({ template_id: 2, name: 'Seeded', author: null, user_id: null })], 25, 2) : page(many, 25, 1);
      },
      'GET /api/templates/types': () => ({ body: { types: [{ type_id: 1, name: 'Blog', count: 3 }] } }),
    });
  };

  it('lists cards (name, description, one tag, author, or the app team for the seeded library) sorted by the setting, 24 per page; a new sort starts at page 1', { timeout: 30_000 }, async () => {
    const { calls } = manyPages();
    renderScreen(<TemplatesPage />, { session: session(), route: '/templates', config: { templates_default_sort: 'name_asc' } });
    expect(await screen.findAllByTestId('template-card')).toHaveLength(24);
    const first = screen.getAllByTestId('template-card')[0];
    expect(within(first).getByText('A post for the blog')).toBeInTheDocument();
    expect(within(first).getAllByTestId('template-tag').map((tag) => tag.textContent)).toEqual(['Marketing']);
    expect(within(first).getByTestId('template-author')).toHaveTextContent('By Ana García');
    expect(listCalls(calls)[0].get('sortBy')).toBe('name_asc');
    expect(screen.getByTestId('templates-sort')).toHaveValue('name_asc');

    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: '2' }));
    expect(await screen.findByText('Seeded')).toBeInTheDocument();
    // The seeded library (no user_id) is the app's own, not an unknown admin's.
    expect(screen.getByTestId('template-author')).toHaveTextContent('By the Pluma team');
    expect(listCalls(calls).at(-1)?.get('page')).toBe('2');

    await user.selectOptions(screen.getByTestId('templates-sort'), 'updatedAt_desc');
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('sortBy')).toBe('updatedAt_desc'));
    expect(listCalls(calls).at(-1)?.get('page')).toBe('1');
  });

  it('switching tab resets the page to 1; search', async () => {
    const { calls } = manyPages(3);
    renderScreen(<TemplatesPage />, { session: session(), route: '/templates' });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: '2' }));
    expect(await screen.findByText('Seeded')).toBeInTheDocument();
    // spec part 2 §4: switching tab resets the page to 1.
    await user.click(screen.getByText('Type'));
    expect(await screen.findByTestId('type-link')).toHaveTextContent('Blog');
    expect(screen.getByTestId('location')).toHaveTextContent('/templates/types');
    await user.click(screen.getByText('All'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/templates$/));
    // Page 1 again (from the cache: its first load answered it).
    expect(await screen.findAllByTestId('template-card')).toHaveLength(3);
    expect(screen.queryByText('Seeded')).toBeNull();
    expect(screen.getByRole('button', { name: '1' })).toHaveAttribute('data-active', 'true');

    await user.type(screen.getByLabelText('Search templates'), 'post');
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('query')).toBe('post'));
  });

  it('tag drill-down with Back; the empty texts of the three tabs', async () => {
    const { calls } = stubFetch({
      'GET /api/templates': (_init, url) => (new URL(url, 'http://x').searchParams.get('tag') === 'Email' ? page([template({ name: 'Newsletter' })]) : page([])),
      'GET /api/templates/tags': () => ({ body: { tags: [{ tag_id: 1, name: 'Email', count: 1 }] } }),
      'GET /api/templates/types': () => ({ body: { types: [] } }),
    });
    renderScreen(<TemplatesPage />, { session: session(), route: '/templates' });
    expect(await screen.findByTestId('templates-empty')).toHaveTextContent("There aren't any templates");
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByText('Type'));
    expect(await screen.findByTestId('templates-empty')).toHaveTextContent("There aren't any Types");
    await user.click(screen.getByText('Tags'));
    await user.click(await screen.findByTestId('tag-link'));
    expect(screen.getByTestId('location')).toHaveTextContent('/templates/tags/Email');
    expect(await screen.findByText('Newsletter')).toBeInTheDocument();
    expect(screen.getByTestId('templates-drilldown')).toHaveTextContent('Tag: Email');
    expect(listCalls(calls).at(-1)?.get('tag')).toBe('Email');
    await user.click(screen.getByTestId('templates-back'));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/templates\/tags$/);
    expect(await screen.findByTestId('templates-tabs')).toBeInTheDocument();
  });

  it('Tags tab without tags; stars a template; the favourites and language filters; the admin toggle only for staff admins', async () => {
    let favorite = false;
    const { calls } = stubFetch({
      'GET /api/templates': () => page([template({ favorite })]),
      'GET /api/templates/tags': () => ({ body: { tags: [] } }),
      'POST /api/templates/favorite': () => {
        favorite = !favorite;
        return { body: { template_id: 5, favorite } };
      },
    });
    renderScreen(<TemplatesPage />, { session: session(), route: '/templates' });
    const user = userEvent.setup({ delay: null });
    expect(screen.queryByTestId('templates-admin')).toBeNull();
    await user.click(await screen.findByRole('button', { name: 'Add Blog post to favorites' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ template_id: 5 }));
    expect(await screen.findByRole('button', { name: 'Remove Blog post from favorites' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByLabelText('Favorites only'));
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('favorites')).toBe('true'));
    expect(listCalls(calls).at(-1)?.has('language')).toBe(false);
    await user.selectOptions(screen.getByLabelText('Language'), 'es');
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('language')).toBe('es'));
    await user.click(screen.getByText('Tags'));
    expect(await screen.findByTestId('templates-empty')).toHaveTextContent("There aren't any Tags");
  });

  it('staff admins list every template; the info modal explains [field]; Apply opens the apply screen; Spanish', async () => {
    const { calls } = stubFetch({ 'GET /api/templates': () => page([template()]) });
    await setLanguage('es');
    renderScreen(<TemplatesPage />, { session: session({ staff: { staff_id: 1, role: 'admin' } }), route: '/templates' });
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByRole('link', { name: 'Aplicar Blog post' })).toHaveAttribute('href', '/templates/apply-template/5/new');
    await user.click(screen.getByLabelText('Plantillas de administración'));
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('admin')).toBe('true'));
    await user.click(screen.getByRole('button', { name: 'Cómo funcionan los campos' }));
    const modal = await screen.findByRole('dialog', { name: 'Campos de una plantilla' });
    expect(within(modal).getByText('[#Palabras]')).toBeInTheDocument();
  });

  it('deletes a template after confirming; no edit or delete without the abilities', async () => {
    let list = [template(), template({ template_id: 6, name: 'Shared one', abilities: READER })];
    const { calls } = stubFetch({
      'GET /api/templates': () => page(list),
      'DELETE /api/templates/5': () => {
        list = list.filter((item) => item.template_id !== 5);
        return { body: { deleted: true } };
      },
    });
    renderScreen(<TemplatesPage />, { session: session(), route: '/templates' });
    const shared = await screen.findByRole('article', { name: 'Shared one' });
    expect(within(shared).queryByTestId('template-edit')).toBeNull();
    expect(within(shared).queryByTestId('template-delete')).toBeNull();
    const own = screen.getByRole('article', { name: 'Blog post' });
    expect(within(own).getByTestId('template-edit')).toHaveAttribute('href', '/templates/edit-template/5');
    const user = userEvent.setup({ delay: null });
    await user.click(within(own).getByTestId('template-delete'));
    const confirm = await screen.findByRole('dialog', { name: 'Delete template' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Blog post' })).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(true);
  });
  it('deleting the only template of the last page steps back a page', async () => {
    let last = [template({ template_id: 2, name: 'Last one' })];
    const { calls } = stubFetch({
      'GET /api/templates': (_init, url) =>
        new URL(url, 'http://x').searchParams.get('page') === '2' ? page(last, 24 + last.length, 2) : page([template({ template_id: 3, name: 'First page' })], 24 + last.length, 1),
      'DELETE /api/templates/2': () => {
        last = [];
        return { body: { deleted: true } };
      },
    });
    renderScreen(<TemplatesPage />, { session: session(), route: '/templates' });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: '2' }));
    await user.click(within(await screen.findByRole('article', { name: 'Last one' })).getByTestId('template-delete'));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete template' })).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('article', { name: 'First page' })).toBeInTheDocument();
    expect(listCalls(calls).at(-1)?.get('page')).toBe('1');
  });
});

describe('tags, types and moving libraries', () => {
  it('staff admins add a tag (not empty) and delete one after confirming', async () => {
    let tags = [{ tag_id: 1, name: 'Email', count: 2 }];
    const { calls } = stubFetch({
      'GET /api/templates/tags': () => ({ body: { tags } }),
      'POST /api/templates/tags': (init) => {
        const { name } = JSON.parse(String(init.body)) as { name: string };
        const tag = { tag_id: 2, name, count: 0 };
        tags = [...tags, tag];
        return { status: 201, body: tag };
      },
      'DELETE /api/templates/tags/1': () => {
        tags = tags.filter((tag) => tag.tag_id !== 1);
        return { body: { deleted: true } };
      },
    });
    renderScreen(<TemplatesPage />, { session: session({ staff: { staff_id: 1, role: 'admin' } }), route: '/templates/tags' });
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByTestId('tag-link')).toHaveTextContent('Email');
    await user.click(screen.getByTestId('add-name'));
    expect(await screen.findByText("The input can't be empty")).toBeInTheDocument();
    await user.type(screen.getByLabelText('New tag'), 'Launch');
    await user.click(screen.getByTestId('add-name'));
    await waitFor(() => expect(screen.getAllByTestId('tag-link').map((link) => link.textContent)).toEqual([expect.stringContaining('Email'), expect.stringContaining('Launch')]));
    expect(screen.getByText('2 templates')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Launch' });
    await user.click(screen.getByRole('button', { name: 'Delete Email' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete tag' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getAllByTestId('tag-link')).toHaveLength(1));
  });

  it('a user who is not an admin gets no tag management', async () => {
    stubFetch({ 'GET /api/templates/types': () => ({ body: { types: [{ type_id: 1, name: 'Blog', count: 1 }] } }) });
    renderScreen(<TemplatesPage />, { session: session(), route: '/templates/types' });
    expect(await screen.findByTestId('type-link')).toHaveTextContent('Blog');
    expect(screen.queryByTestId('new-name')).toBeNull();
    expect(screen.queryByTestId('delete-name')).toBeNull();
  });

  it('imports an export file as it is, refuses a file that is not JSON, and exports the listed templates whose prompt is readable', async () => {
    stubObjectUrls(() => 'blob:templates');
    const file = { format: 'pluma-templates', version: 1, exportedAt: '2026-01-01T00:00:00.000Z', templates: [{ name: 'A', description: 'B', content: 'C [D]' }] };
    const { calls } = stubFetch({
      'GET /api/templates': () => page([template(), template({ template_id: 6, name: 'Hidden', content: null, abilities: READER })]),
      'POST /api/templates/import': () => ({ status: 201, body: { imported: 1, templates: [template({ template_id: 40 })] } }),
      'GET /api/templates/export': () => ({ body: file }),
    });
    renderScreen(<TemplatesPage />, { session: session(), route: '/templates' });
    const user = userEvent.setup({ delay: null });
    const input = (await screen.findByTestId('templates-page')).querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File([JSON.stringify(file)], 'templates.json', { type: 'application/json' }));
    expect(await screen.findByText('1 template imported')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual(file);

    await user.upload(input, new File(['not json'], 'notes.json', { type: 'application/json' }));
    expect(await screen.findByText('The file is not a templates export (it is not JSON).')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);

    await user.click(await screen.findByRole('button', { name: 'Export 1' }));
    await waitFor(() => expect(URL.createObjectURL).toHaveBeenCalled());
    expect(calls.find((c) => c.url.includes('/api/templates/export'))?.url).toContain('ids=5');
  });
});

describe('template editor', () => {
  const lists = {
    'GET /api/templates/tags': () => ({ body: { tags: [{ tag_id: 1, name: 'Email', count: 0 }] } }),
    'GET /api/templates/types': () => ({ body: { types: [{ type_id: 1, name: 'Blog', count: 0 }] } }),
  };

  it('regenerates the fields from the prompt as it is typed, with the spec messages; a failed save says so and sends nothing', async () => {
    const { calls } = stubFetch({ ...lists, 'POST /api/templates': () => ({ status: 201, body: template({ template_id: 9 }) }) });
    renderScreen(<TemplateEditorPage />, { session: session(), route: '/templates/create-template' });
    const user = userEvent.setup({ delay: null });
    const content = await screen.findByTestId('template-content-input');
    // Create: Prompt, Editable and Show Prompt for anyone; Public only for admins.
    expect(screen.getByTestId('template-editable')).toBeInTheDocument();
    expect(screen.getByTestId('template-show-prompt')).toBeInTheDocument();
    expect(screen.queryByTestId('template-public')).toBeNull();
    expect(screen.getByTestId('no-fields')).toBeInTheDocument();

    await user.click(content);
    await user.paste('Write a [Tone: formal/casual/] post of [#Words] words about [topic] and [Voice:].');
    const rows = screen.getAllByTestId('template-field');
    expect(rows.map((row) => within(row).getByTestId('field-label').textContent)).toEqual(['Tone', 'Words', 'Topic', 'Voice']);
    expect(rows.map((row) => within(row).getByTestId('field-type').textContent)).toEqual(['Select', 'Number', 'Text', 'Select']);
    expect(within(rows[0]).getByText('formal')).toBeInTheDocument();
    expect(within(rows[0]).getByText('casual')).toBeInTheDocument();
    expect(within(rows[3]).getByTestId('field-error')).toHaveTextContent('Select type must have at least one option');

    await user.paste(` [${'x'.repeat(255)}]`);
    expect(screen.getAllByTestId('field-error').map((e) => e.textContent)).toContain('The input max length is 254 characters');

    await user.click(screen.getByTestId('save-template'));
    expect(await screen.findByTestId('save-failed')).toHaveTextContent('Please complete all the required fields to save.');
    expect(screen.getAllByText("The input can't be empty")).toHaveLength(2);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.clear(content);
    await user.paste('Hello [Name]');
    expect(screen.getAllByTestId('template-field')).toHaveLength(1);
    await user.type(screen.getByTestId('template-name-input'), 'Greeting');
    await user.type(screen.getByTestId('template-description-input'), 'Says hello');
    await user.click(screen.getByText('Spanish'));
    await user.click(screen.getByTestId('template-show-prompt'));
    await user.click(screen.getByTestId('save-template'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/templates$/));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Greeting',
      description: 'Says hello',
      content: 'Hello [Name]',
      language: 'es',
      type: null,
      tags: [],
      editable: false,
      show_prompt: true,
      organization_id: null,
    });
  });

  it('an editable template of someone else: name and lists only (no prompt controls, the prompt hidden), no delete', async () => {
    const shared = template({ content: null, editable: true, abilities: { ...READER, edit: true }, fields: parseTemplateFields(CONTENT).fields });
    const { calls } = stubFetch({ ...lists, 'GET /api/templates/5': () => ({ body: shared }), 'PUT /api/templates': () => ({ body: shared }) });
    renderScreen(<TemplateEditorPage />, { session: session(), route: '/templates/edit-template/5', path: '/templates/edit-template/:templateId' });
    expect(await screen.findByTestId('prompt-hidden')).toBeInTheDocument();
    expect(screen.queryByTestId('template-content-input')).toBeNull();
    expect(screen.getAllByTestId('template-field')).toHaveLength(3);
    expect(screen.queryByTestId('template-editable')).toBeNull();
    expect(screen.queryByTestId('template-show-prompt')).toBeNull();
    expect(screen.queryByTestId('delete-template')).toBeNull();
    const user = userEvent.setup({ delay: null });
    await user.clear(screen.getByTestId('template-name-input'));
    await user.type(screen.getByTestId('template-name-input'), 'Blog post 2');
    await user.click(screen.getByTestId('save-template'));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ template_id: 5, name: 'Blog post 2', description: 'A post for the blog', language: 'en', type: 'Blog', tags: ['Marketing', 'Social'] }));
  });

  it('the owner (an admin) edits the prompt and the public toggle, and deletes after confirming', async () => {
    const mine = template({ abilities: { ...OWNER, setPublic: true } });
    const { calls } = stubFetch({ ...lists, 'GET /api/templates/5': () => ({ body: mine }), 'DELETE /api/templates/5': () => ({ body: { deleted: true } }) });
    renderScreen(<TemplateEditorPage />, { session: session(), route: '/templates/edit-template/5', path: '/templates/edit-template/:templateId' });
    expect(await screen.findByTestId('template-content-input')).toHaveValue(CONTENT);
    expect(screen.getByTestId('template-public')).toBeInTheDocument();
    expect(screen.getByTestId('template-editable')).toBeInTheDocument();
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('delete-template'));
    const confirm = await screen.findByRole('dialog', { name: 'Delete template' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/templates$/));
    expect(calls.some((c) => c.method === 'DELETE' && c.url.endsWith('/api/templates/5'))).toBe(true);
  });

  it("a template one may not edit (or another user's, 404) is not offered for editing", async () => {
    stubFetch({ ...lists, 'GET /api/templates/5': () => ({ body: template({ abilities: READER }) }) });
    renderScreen(<TemplateEditorPage />, { session: session(), route: '/templates/edit-template/5', path: '/templates/edit-template/:templateId' });
    expect(await screen.findByTestId('template-not-found')).toHaveTextContent("You can't edit this template.");
  });
});

describe('apply screen', () => {
  const answer = (overrides: Partial<Message> & Pick<Message, 'message_id'>) => buildMessage({ conversation_id: 33, ...overrides });

  // The server fills the template from its id and values (POST /messages { template_id, values }).
  const prompts: Record<number, string> = { 5: CONTENT, 8: 'A tweet about [Subject]' };

  function applyApi(extra: Parameters<typeof stubFetch>[0] = {}) {
    const sent: Message[] = [];
    const api = stubFetch({
      'GET /api/templates/5': () => ({ body: template() }),
      'POST /api/conversations': () => ({ status: 201, body: buildConversation({ conversation_id: 33, name: 'Blog post' }) }),
      'GET /api/messages/conversation/33': () => ({ body: buildMessagePage(sent) }),
      'POST /api/messages': (init) => {
        const body = JSON.parse(String(init.body)) as { template_id: number; values: Record<string, string> };
        const user = answer({ message_id: 1, role: 'user', content: fillTemplate(prompts[body.template_id] ?? '', body.values) });
        const pending = answer({ message_id: 2, content: null, status: 'pending', finish_reason: null });
        sent.push(user, pending);
        return { status: 201, body: { user_message: user, assistant_message: pending } };
      },
      ...extra,
    });
    return api;
  }

  it('fields by order (dropdown, number, text with a capitalised label); Generate waits for every field, then sends the filled prompt to a new conversation and shows the chat; Stop ends its answer', async () => {
    const { calls } = applyApi({ 'POST /api/messages/2/stop': () => ({ body: answer({ message_id: 2, content: 'A start', status: 'done', finish_reason: 'stopped' }) }) });
    renderScreen(<ApplyTemplatePage />, { session: session(), route: '/templates/apply-template/5/new', path: '/templates/apply-template/:templateId/:conversationId' });
    const generate = await screen.findByTestId('apply-generate');
    const inputs = screen.getAllByTestId('apply-field');
    expect(inputs.map((input) => input.tagName)).toEqual(['SELECT', 'INPUT', 'INPUT']);
    expect(screen.getByLabelText(/^Topic/)).toBe(inputs[2]);
    expect(generate).toBeDisabled();

    const user = userEvent.setup({ delay: null });
    await user.selectOptions(inputs[0], 'casual');
    await user.type(inputs[1], '300');
    expect(generate).toBeDisabled();
    await user.type(inputs[2], 'x');
    await user.clear(inputs[2]);
    expect(await screen.findByText("The input can't be empty")).toBeInTheDocument();
    await user.type(inputs[2], 'roses');
    expect(generate).toBeEnabled();
    await user.click(generate);

    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST' && c.url.endsWith('/api/messages'))?.body).toEqual({
        conversation_id: 33,
        content: '',
        template_id: 5,
        values: { Tone: 'casual', Words: '300', topic: 'roses' },
        stream: true,
      }),
    );
    expect(calls.find((c) => c.method === 'POST' && c.url.endsWith('/api/conversations'))?.body).toEqual({ name: 'Blog post', organization_id: null });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/templates/apply-template/5/33'));
    expect(await screen.findByText('Write a casual post of 300 words about roses.', { selector: '[data-testid="message-history"] *' })).toBeVisible();
    // spec part 2 §2: Generate is disabled while the answer is being written.
    expect(screen.getByTestId('apply-generate')).toBeDisabled();
    expect(calls.some((c) => c.url.includes('/use'))).toBe(false);
    // Stop ends the answer being written (issue 30 item 1).
    await user.click(screen.getByRole('button', { name: 'Stop generating' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toContain('/api/messages/2/stop'));
    await waitFor(() => expect(screen.getByTestId('apply-generate')).toBeEnabled());
  });

  it('apply-avatar sends with the avatar; Browse Templates swaps in the browser and applying one there loads it', async () => {
    const other = template({ template_id: 8, name: 'Tweet', content: 'A tweet about [Subject]', fields: parseTemplateFields('A tweet about [Subject]').fields });
    const { calls } = applyApi({
      'GET /api/avatars/4': () => ({ body: { avatar_id: 4, name: 'Coach', avatar_files: [], refine: null } }),
      'GET /api/templates': () => page([template(), other]),
      'GET /api/templates/8': () => ({ body: other }),
    });
    renderScreen(<ApplyTemplatePage />, { session: session(), route: '/templates/apply-avatar/5/4', path: '/templates/apply-avatar/:templateId/:avatarId' });
    expect(await screen.findByText('Fill in the fields and generate with the avatar Coach.')).toBeInTheDocument();
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('browse-templates'));
    expect(screen.queryByTestId('apply-form')).toBeNull();
    // Keyboard users land on the way back.
    expect(screen.getByTestId('close-browser')).toHaveFocus();
    await user.click(await screen.findByRole('button', { name: 'Apply Tweet' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/templates/apply-avatar/8/4'));
    expect(await screen.findByTestId('apply-template-name')).toHaveTextContent('Tweet');
    const [subject] = screen.getAllByTestId('apply-field');
    await user.type(subject, 'spring');
    await user.click(screen.getByTestId('apply-generate'));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST' && c.url.endsWith('/api/messages'))?.body).toMatchObject({ conversation_id: 33, template_id: 8, values: { Subject: 'spring' }, avatar_id: 4 }),
    );
    expect(calls.find((c) => c.method === 'POST' && c.url.endsWith('/api/conversations'))?.body).toEqual({ name: 'Tweet', organization_id: null, avatar_id: 4 });
    expect(screen.getByTestId('location')).toHaveTextContent('/templates/apply-avatar/8/4');
  });

  it("a prompt this user may not read is not shown, and is still applied (the server fills it)", async () => {
    const { calls } = applyApi({ 'GET /api/templates/5': () => ({ body: template({ content: null, abilities: READER }) }) });
    renderScreen(<ApplyTemplatePage />, { session: session(), route: '/templates/apply-template/5/new', path: '/templates/apply-template/:templateId/:conversationId' });
    const inputs = await screen.findAllByTestId('apply-field');
    const user = userEvent.setup({ delay: null });
    await user.selectOptions(inputs[0], 'formal');
    await user.type(inputs[1], '50');
    await user.type(inputs[2], 'tea');
    expect(screen.queryByTestId('apply-preview')).toBeNull();
    await user.click(screen.getByTestId('apply-generate'));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST' && c.url.endsWith('/api/messages'))?.body).toMatchObject({ conversation_id: 33, content: '', template_id: 5, values: { Tone: 'formal', Words: '50', topic: 'tea' } }),
    );
  });
});
