// The avatar page's templates panel (spec part 2 §2 "Avatar page: … templates panel", §9 24 per page): the
// templates listed with search, a favorites toggle and "Load more"; Apply opens
// /templates/apply-avatar/{template_id}/{avatar_id}; loading, empty ('There aren't any templates') and error
// states; hidden while templates_enabled is off. EN and ES.
import type { AvatarWithFiles } from '@pluma/common/avatars';
import type { Template } from '@pluma/common/templates';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import AvatarPage from './AvatarPage';
import { setupFakeSocket } from '../../test/fake-socket';

setupFakeSocket();

afterEach(async () => {
  await i18n.changeLanguage('en');
});

const READER = { read: true, update: false, delete: false, publish: false, clone: true, add_file: false, refine: false, sync: false };

const avatar: AvatarWithFiles = {
  avatar_id: 7,
  assistant_id: null,
  name: 'Lighthouse keeper',
  description: '',
  context: 'You keep the lighthouse.',
  public: true,
  user_id: 2,
  organization_id: null,
  super_fetch_assistant: false,
  kind: null,
  author: { name: 'Ana', last_name: 'García' },
  files_count: 0,
  refine: { status: 'idle', error_code: null, error_message: null, updatedAt: null },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  abilities: READER,
  avatar_files: [],
};

function template(id: number, overrides: Partial<Template> = {}): Template {
  return {
    template_id: id,
    name: `Template ${id}`,
    description: `About ${id}`,
    content: null,
    type: null,
    tags: ['Marketing', 'Social'],
    language: 'en',
    public: true,
    editable: false,
    show_prompt: false,
    user_id: null,
    organization_id: null,
    favorite: false,
    author: null,
    fields: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    usedAt: null,
    abilities: { edit: false, delete: false, setPublic: false, editPrompt: false, export: false },
    ...overrides,
  };
}

const listCalls = (calls: { method: string; url: string }[]) =>
  calls.filter((c) => c.method === 'GET' && /\/api\/templates(\?|$)/.test(c.url)).map((c) => new URL(c.url, 'http://x').searchParams);

const show = (config: Record<string, string> = { templates_enabled: 'true' }) =>
  renderScreen(<AvatarPage />, { session: fakeSession(buildUser()), route: '/avatars/7', path: '/avatars/:avatarId/*', config });

describe('avatar page: templates panel', () => {
  it('lists the templates 24 at a time with Load more, searches, filters favorites, and Apply opens the apply screen for this avatar', async () => {
    const all = Array.from({ length: 25 }, (_, i) => template(i + 1, i === 0 ? { favorite: true } : {}));
    const { calls } = stubFetch({
      'GET /api/avatars/7': () => ({ body: avatar }),
      'GET /api/templates': (_init, url) => {
        const query = new URL(url, 'http://x').searchParams;
        const text = query.get('query') ?? '';
        const language = query.get('language');
        const matching = all.filter((t) => (!text || t.name.includes(text)) && (query.get('favorites') !== 'true' || t.favorite) && (!language || t.language === language));
        const pageNo = Number(query.get('page') ?? 1);
        return { body: { templates: matching.slice((pageNo - 1) * 24, pageNo * 24), total: matching.length, page: pageNo, pageSize: 24 } };
      },
    });
    show();
    const panel = await screen.findByTestId('templates-panel');
    expect(within(panel).getByRole('heading', { name: 'Templates' })).toBeInTheDocument();
    await waitFor(() => expect(within(panel).getAllByTestId('avatar-template')).toHaveLength(24));
    expect(listCalls(calls)[0].get('page')).toBe('1');
    // One tag per template, as on the templates' cards (spec part 2 §9); the star marks a favorite.
    const first = within(panel).getAllByTestId('avatar-template')[0];
    expect(first).toHaveTextContent('Marketing');
    expect(first).not.toHaveTextContent('Social');
    expect(within(first).getByRole('img', { name: 'Favorite' })).toBeInTheDocument();

    const user = userEvent.setup({ delay: null });
    await user.click(within(panel).getByTestId('templates-more'));
    await waitFor(() => expect(within(panel).getAllByTestId('avatar-template')).toHaveLength(25));
    // The English pages, then (none here) the Spanish ones.
    expect(listCalls(calls).map((q) => `${q.get('language')}:${q.get('page')}`)).toEqual(['en:1', 'en:2', 'es:1']);
    expect(within(panel).queryByTestId('templates-more')).toBeNull();

    await user.click(within(panel).getByRole('switch', { name: 'Favorites only' }));
    await waitFor(() => expect(within(panel).getAllByTestId('avatar-template')).toHaveLength(1));
    expect(listCalls(calls).at(-1)?.get('favorites')).toBe('true');
    await user.click(within(panel).getByRole('switch', { name: 'Favorites only' }));

    await user.type(within(panel).getByRole('textbox', { name: 'Search templates' }), 'Template 12');
    await waitFor(() => expect(within(panel).getAllByTestId('avatar-template-name').map((n) => n.textContent)).toEqual(['Template 12']));
    expect(listCalls(calls).at(-1)?.get('query')).toBe('Template 12');
    expect(listCalls(calls).at(-1)?.has('favorites')).toBe(false);

    await user.click(within(panel).getByRole('link', { name: 'Apply Template 12' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/templates/apply-avatar/12/7'));
  });

  it("says there aren't any templates, in Spanish", async () => {
    await setLanguage('es');
    stubFetch({
      'GET /api/avatars/7': () => ({ body: avatar }),
      'GET /api/templates': () => ({ body: { templates: [], total: 0, page: 1, pageSize: 24 } }),
    });
    show();
    const panel = await screen.findByTestId('templates-panel');
    expect(within(panel).getByRole('heading', { name: 'Plantillas' })).toBeInTheDocument();
    expect(await within(panel).findByTestId('templates-empty')).toHaveTextContent('No hay plantillas');
    expect(within(panel).queryByTestId('templates-more')).toBeNull();
  });

  it('shows loading, then a failure with Retry, then the templates', async () => {
    let fail = true;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    stubFetch({
      'GET /api/avatars/7': () => ({ body: avatar }),
      'GET /api/templates': (_init, url) =>
        fail
          ? { status: 500, body: { error: 'internal', message: 'Something went wrong.' } }
          : url.includes('language=es')
            ? { body: { templates: [], total: 0, page: 1, pageSize: 24 } }
            : { body: { templates: [template(3)], total: 1, page: 1, pageSize: 24 } },
    });
    // The first answer waits until the loading state has been seen.
    const fetchStub = vi.mocked(globalThis.fetch);
    const answer = fetchStub.getMockImplementation()!;
    fetchStub.mockImplementation(async (input, init) => {
      if (String(input).includes('/api/templates')) await gate;
      return answer(input, init);
    });
    show();
    expect(await screen.findByTestId('templates-loading')).toBeInTheDocument();
    release();
    const error = await screen.findByTestId('templates-error', {}, { timeout: 5_000 });
    fail = false;
    await userEvent.setup({ delay: null }).click(within(error).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Template 3')).toBeInTheDocument();
    expect(screen.queryByTestId('templates-error')).toBeNull();
  });

  it("lists the templates of the user's language first (issue 30 item 20), in English and in Spanish", async () => {
    const all = [
      template(1, { name: 'Plantilla de anuncio', language: 'es' }),
      template(2, { name: 'Ad template', language: 'en' }),
      template(3, { name: 'Plantilla de correo', language: 'es' }),
      template(4, { name: 'Email template', language: 'en' }),
    ];
    const stub = () =>
      stubFetch({
        'GET /api/avatars/7': () => ({ body: avatar }),
        'GET /api/templates': (_init, url) => {
          const language = new URL(url, 'http://x').searchParams.get('language');
          const matching = all.filter((t) => !language || t.language === language);
          return { body: { templates: matching, total: matching.length, page: 1, pageSize: 24 } };
        },
      });
    const names = async () => {
      const panel = await screen.findByTestId('templates-panel');
      await waitFor(() => expect(within(panel).getAllByTestId('avatar-template-name')).toHaveLength(4));
      return within(panel).getAllByTestId('avatar-template-name').map((n) => n.textContent);
    };
    stub();
    const english = show();
    expect(await names()).toEqual(['Ad template', 'Email template', 'Plantilla de anuncio', 'Plantilla de correo']);
    english.unmount();

    await setLanguage('es');
    stub();
    show();
    expect(await names()).toEqual(['Plantilla de anuncio', 'Plantilla de correo', 'Ad template', 'Email template']);
  });

  it('is not shown while templates are off', async () => {
    const { calls } = stubFetch({ 'GET /api/avatars/7': () => ({ body: avatar }) });
    show({ templates_enabled: 'false' });
    expect(await screen.findByTestId('context-card')).toBeInTheDocument();
    expect(screen.queryByTestId('templates-panel')).toBeNull();
    expect(listCalls(calls)).toHaveLength(0);
  });
});
