// Templates through the real app and database (spec part 2 §2 "Templates", §5 "Template save", §6 template
// permissions, §7 "Templates", §9; issue 14 item 2): the permission matrix (owner, admin, editable, public,
// another user's private template → 404 on every route, organization scope), validation in EN/ES, fields
// recomputed from the content, favorites, sorts, paging, tag and type filters, export → import, the seed.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appConfig, campaignResources, campaigns, campaignUsers, templates, templateSeeds } from '../../db/schema';
import { buildOrganization, buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { testDbKind } from '../../test/test-db';
import { SEED_TEMPLATES, seedTemplates } from './seed';

describe(`templates API (${testDbKind()})`, () => {
  let t: TestApp;
  let ana: BuiltUser; // has access
  let ben: BuiltUser; // has access, Spanish
  let noAccess: BuiltUser;
  let admin: BuiltUser; // staff admin
  let organizationId: number;

  type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
  const call = (who: BuiltUser | null, method: Method, url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who?.auth ?? {}, ...(payload ? { payload } : {}) });
  const base = { name: 'Post', description: 'A post', content: 'Write about [Topic] in [#Words] words, [Tone: formal/casual/].' };
  const create = async (who: BuiltUser, body: object = {}, query = '') => {
    const res = await call(who, 'POST', `/api/templates${query}`, { ...base, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };

  beforeAll(async () => {
    t = await createTestApp();
    ana = await buildUser(t.ctx, { name: 'Ana', lastName: 'Gómez', access: true });
    ben = await buildUser(t.ctx, { name: 'Ben', access: true, lang: 'es' });
    noAccess = await buildUser(t.ctx);
    admin = await buildUser(t.ctx, { staffRole: 'admin' });
    organizationId = (await buildOrganization(t.ctx, [{ user: ana, role: 'admin' }, { user: ben, role: 'member' }])).organizationId;
    for (const name of ['Email', 'Blog']) expect((await call(admin, 'POST', '/api/templates/types', { name })).statusCode).toBe(201);
    for (const name of ['Sales', 'SEO']) expect((await call(admin, 'POST', '/api/templates/tags', { name })).statusCode).toBe(201);
  });
  afterAll(async () => t?.close());

  it('creates a template with the spec fields, fields parsed from the content, and the owner abilities', async () => {
    const created = await create(ana, { name: ' Launch ', type: 'Email', tags: ['sales', 'SEO'], language: 'es', show_prompt: true, editable: false });
    expect(Object.keys(created).sort()).toEqual(
      [
        'abilities',
        'author',
        'content',
        'createdAt',
        'description',
        'editable',
        'favorite',
        'fields',
        'language',
        'name',
        'organization_id',
        'public',
        'show_prompt',
        'tags',
        'template_id',
        'type',
        'updatedAt',
        'usedAt',
        'user_id',
      ].sort(),
    );
    expect(created).toMatchObject({
      name: 'Launch',
      type: 'Email',
      tags: ['Sales', 'SEO'],
      language: 'es',
      public: false,
      show_prompt: true,
      user_id: ana.user.userId,
      organization_id: null,
      favorite: false,
      usedAt: null,
      author: { name: 'Ana', last_name: 'Gómez' },
      content: base.content,
    });
    expect(created.fields.map((f: { name: string; type: string; options: string[]; order: number }) => [f.name, f.type, f.options, f.order])).toEqual([
      ['Topic', 'text', [], 0],
      ['Words', 'number', [], 1],
      ['Tone', 'select', ['formal', 'casual'], 2],
    ]);
    expect(created.abilities).toEqual({ edit: true, delete: true, setPublic: false, editPrompt: true, export: true });
  });

  it('recomputes the fields from the content and ignores fields sent by a client', async () => {
    const res = await call(ana, 'POST', '/api/templates', { ...base, content: 'Hi [Name]', fields: [{ name: 'Evil', type: 'text' }] });
    // fields sent by a client are dropped (not part of the request): the content decides
    expect(res.statusCode).toBe(201);
    expect(res.json().fields.map((f: { name: string }) => f.name)).toEqual(['Name']);
    const made = await create(ana, { content: 'Hi [Name]' });
    const updated = await call(ana, 'PUT', '/api/templates', { template_id: made.template_id, content: 'Hola [Nombre] de [Año]' });
    expect(updated.json().fields.map((f: { name: string }) => f.name)).toEqual(['Nombre', 'Año']);
  });

  it('refuses an incomplete template with the spec messages, in English and Spanish, and saves nothing', async () => {
    const before = (await t.ctx.db.select().from(templates)).length;
    const empty = await call(ana, 'POST', '/api/templates', { name: '', description: ' ', content: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({
      error: 'validation_error',
      message: 'Please complete all the required fields to save.',
      details: { name: "The input can't be empty", description: "The input can't be empty", content: "The input can't be empty" },
    });
    const fields = await call(ben, 'POST', '/api/templates', { ...base, content: `[${'x'.repeat(255)}] [Tono:] [] [A] [a]` });
    expect(fields.statusCode).toBe(400);
    expect(fields.json()).toMatchObject({
      message: 'Por favor, completa todos los campos obligatorios para guardar.',
      details: {
        'fields.0': 'La longitud máxima del campo es de 254 caracteres',
        'fields.1': 'El tipo selección debe tener al menos una opción',
        'fields.2': 'El campo no puede estar vacío',
        'fields.3': 'Un campo solo puede aparecer una vez en el contenido.',
      },
    });
    const english = await call(ana, 'POST', '/api/templates', { ...base, content: '[Tone: a//b/]' });
    expect(english.json().details['fields.0']).toBe('Select type must have at least one option');
    const longLabel = await call(ana, 'POST', '/api/templates', { ...base, content: `[${'y'.repeat(255)}]` });
    expect(longLabel.json().details['fields.0']).toBe('The input max length is 254 characters');
    const unknownTag = await call(ana, 'POST', '/api/templates', { ...base, tags: ['Nope'] });
    expect(unknownTag.statusCode).toBe(400);
    expect(unknownTag.json().details.tags).toBe('This tag is not one of the template tags.');
    const unknownType = await call(ana, 'POST', '/api/templates', { ...base, type: 'Nope' });
    expect(unknownType.json().details.type).toBe('This type is not one of the template types.');
    // an update that would break the rules changes nothing
    const made = await create(ana);
    const broken = await call(ana, 'PUT', '/api/templates', { template_id: made.template_id, name: '', content: '[A] [A]' });
    expect(broken.statusCode).toBe(400);
    expect((await call(ana, 'GET', `/api/templates/${made.template_id}`)).json()).toMatchObject({ name: 'Post', content: base.content });
    expect((await t.ctx.db.select().from(templates)).length).toBe(before + 1);
  });

  it("another user's private template is a 404 on every route; staff admins see it", async () => {
    const mine = await create(ana);
    const id = mine.template_id;
    const refusals = [
      call(ben, 'GET', `/api/templates/${id}`),
      call(ben, 'PUT', '/api/templates', { template_id: id, name: 'Taken' }),
      call(ben, 'DELETE', `/api/templates/${id}`),
      call(ben, 'POST', '/api/templates/favorite', { template_id: id }),
      call(ben, 'POST', `/api/templates/${id}/use`, { values: { Topic: 'x', Words: '1', Tone: 'formal' } }),
      call(ben, 'GET', `/api/templates/export?ids=${id}`),
      call(ben, 'GET', '/api/templates/99999999'),
    ];
    for (const res of await Promise.all(refusals)) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    const listed = await call(ben, 'GET', '/api/templates/all');
    expect(listed.json().templates.map((x: { template_id: number }) => x.template_id)).not.toContain(id);
    expect((await call(ana, 'GET', `/api/templates/${id}`)).json().name).toBe('Post');
    const seen = (await call(admin, 'GET', `/api/templates/${id}`)).json();
    expect(seen.abilities).toEqual({ edit: true, delete: true, setPublic: true, editPrompt: true, export: true });
  });

  it('keeps templates in their context: an organization template is private to its author there', async () => {
    const org = `?organization_id=${organizationId}`;
    const inOrg = await create(ana, { name: 'Org only' }, org);
    expect(inOrg.organization_id).toBe(organizationId);
    const personal = await create(ana, { name: 'Personal only' });
    const orgList = (await call(ana, 'GET', `/api/templates${org}&query=only`)).json();
    expect(orgList.templates.map((x: { name: string }) => x.name)).toEqual(['Org only']);
    const personalList = (await call(ana, 'GET', '/api/templates?query=only')).json();
    expect(personalList.templates.map((x: { name: string }) => x.name)).toEqual(['Personal only']);
    expect((await call(ana, 'GET', `/api/templates/${inOrg.template_id}`)).statusCode).toBe(404);
    expect((await call(ana, 'GET', `/api/templates/${personal.template_id}${org}`)).statusCode).toBe(404);
    // a fellow member does not see it
    expect((await call(ben, 'GET', `/api/templates/${inOrg.template_id}${org}`)).statusCode).toBe(404);
    // ...until a campaign he is granted holds it: then he reads and applies it, read-only, in that organization only
    const [campaign] = await t.ctx.db.insert(campaigns).values({ organizationId, userId: ana.user.userId, name: 'Launch' }).returning();
    await t.ctx.db.insert(campaignResources).values({ campaignId: campaign.campaignId, resourceId: inOrg.template_id, type: 'template' });
    expect((await call(ben, 'GET', `/api/templates/${inOrg.template_id}${org}`)).statusCode).toBe(404);
    await t.ctx.db.insert(campaignUsers).values({ campaignId: campaign.campaignId, userId: ben.user.userId });
    const shared = await call(ben, 'GET', `/api/templates/${inOrg.template_id}${org}`);
    expect(shared.statusCode).toBe(200);
    expect(shared.json().abilities).toEqual({ edit: false, delete: false, setPublic: false, editPrompt: false, export: false });
    expect((await call(ben, 'GET', `/api/templates${org}&query=only`)).json().templates.map((x: { name: string }) => x.name)).toEqual(['Org only']);
    // Applied, its hidden prompt stays on the server (issue 30 item 9).
    const usedShared = await call(ben, 'POST', `/api/templates/${inOrg.template_id}/use${org}`, { values: { Topic: 'Spring', Words: '50', Tone: 'formal' } });
    expect(usedShared.statusCode).toBe(200);
    expect(usedShared.json().prompt).toBeNull();
    expect((await call(ben, 'DELETE', `/api/templates/${inOrg.template_id}${org}`)).statusCode).not.toBe(200);
    expect((await call(ben, 'GET', `/api/templates/${inOrg.template_id}`)).statusCode).toBe(404);
    await t.ctx.db.delete(campaigns).where(eq(campaigns.campaignId, campaign.campaignId));
    expect((await call(ben, 'GET', `/api/templates/${inOrg.template_id}${org}`)).statusCode).toBe(404);
    // staff admins see it; a non-member cannot act in the organization at all
    expect((await call(admin, 'GET', `/api/templates/${inOrg.template_id}${org}`)).statusCode).toBe(200);
    const outsider = await buildUser(t.ctx, { access: true });
    expect((await call(outsider, 'GET', `/api/templates${org}`)).statusCode).toBe(404);
  });

  it('public: admins only set it; others then see it read-only, with the prompt only when show_prompt', async () => {
    const mine = await create(ana, { show_prompt: false });
    const refused = await call(ana, 'PUT', '/api/templates', { template_id: mine.template_id, public: true });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Only admins can make a template public.');
    expect((await call(ana, 'POST', '/api/templates', { ...base, public: true })).statusCode).toBe(403);
    const published = await call(admin, 'PUT', '/api/templates', { template_id: mine.template_id, public: true });
    expect(published.statusCode).toBe(200);
    expect(published.json().public).toBe(true);
    const asBen = (await call(ben, 'GET', `/api/templates/${mine.template_id}`)).json();
    expect(asBen.content).toBeNull();
    expect(asBen.fields).toHaveLength(3);
    expect(asBen.abilities).toEqual({ edit: false, delete: false, setPublic: false, editPrompt: false, export: false });
    expect((await call(ben, 'PUT', '/api/templates', { template_id: mine.template_id, name: 'Mine now' })).statusCode).toBe(403);
    expect((await call(ben, 'DELETE', `/api/templates/${mine.template_id}`)).statusCode).toBe(403);
    expect((await call(ben, 'GET', `/api/templates/export?ids=${mine.template_id}`)).statusCode).toBe(403);
    // /use checks the values but gives no hidden prompt (POST /messages fills it: issue 30 item 9); its owner gets it
    const used = await call(ben, 'POST', `/api/templates/${mine.template_id}/use`, { values: { topic: 'café', Words: '50', Tone: 'casual' } });
    expect(used.statusCode).toBe(200);
    expect(used.json().prompt).toBeNull();
    expect(used.body).not.toContain('Write about');
    expect((await call(ana, 'POST', `/api/templates/${mine.template_id}/use`, { values: { topic: 'café', Words: '50', Tone: 'casual' } })).json().prompt).toBe('Write about café in 50 words, casual.');
    // show_prompt on: the prompt reaches others
    await call(ana, 'PUT', '/api/templates', { template_id: mine.template_id, show_prompt: true });
    expect((await call(ben, 'GET', `/api/templates/${mine.template_id}`)).json().content).toBe(base.content);
    expect((await call(ben, 'POST', `/api/templates/${mine.template_id}/use`, { values: { topic: 'café', Words: '50', Tone: 'casual' } })).json().prompt).toBe('Write about café in 50 words, casual.');
  });

  it('editable: anyone who sees it edits and deletes it, but only the owner or staff change the prompt and flags', async () => {
    const shared = await create(ana, { editable: true, show_prompt: true });
    await call(admin, 'PUT', '/api/templates', { template_id: shared.template_id, public: true });
    const seen = (await call(ben, 'GET', `/api/templates/${shared.template_id}`)).json();
    expect(seen.abilities).toMatchObject({ edit: true, delete: true, editPrompt: false, setPublic: false });
    const renamed = await call(ben, 'PUT', '/api/templates', { template_id: shared.template_id, name: 'Renamed', description: 'By Ben', tags: ['SEO'] });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Renamed', tags: ['SEO'], user_id: ana.user.userId });
    const prompt = await call(ben, 'PUT', '/api/templates', { template_id: shared.template_id, content: 'Hijacked [X]' });
    expect(prompt.statusCode).toBe(403);
    expect(prompt.json().message).toBe('Solo el dueño de la plantilla o el personal pueden cambiar su prompt, Editable y Mostrar prompt.');
    expect((await call(ben, 'PUT', '/api/templates', { template_id: shared.template_id, editable: false })).statusCode).toBe(403);
    // the same content is not a change
    expect((await call(ben, 'PUT', '/api/templates', { template_id: shared.template_id, content: base.content })).statusCode).toBe(200);
    expect((await call(ben, 'DELETE', `/api/templates/${shared.template_id}`)).json()).toEqual({ deleted: true });
    expect((await call(ana, 'GET', `/api/templates/${shared.template_id}`)).statusCode).toBe(404);
  });

  it('owner and admin delete; a non-admin cannot list every template; 412 without access; 401 signed out', async () => {
    const a = await create(ana);
    const b = await create(ana);
    expect((await call(ana, 'DELETE', `/api/templates/${a.template_id}`)).statusCode).toBe(200);
    expect((await call(admin, 'DELETE', `/api/templates/${b.template_id}`)).statusCode).toBe(200);
    const everything = await call(ana, 'GET', '/api/templates?admin=true');
    expect(everything.statusCode).toBe(403);
    expect(everything.json().message).toBe('Only admins can list every template.');
    const adminAll = (await call(admin, 'GET', '/api/templates?admin=true&query=Launch')).json();
    expect(adminAll.templates.map((x: { user_id: number }) => x.user_id)).toContain(ana.user.userId);
    const adminMine = (await call(admin, 'GET', '/api/templates?query=Launch')).json();
    expect(adminMine.total).toBe(0);
    const premium = await call(noAccess, 'GET', '/api/templates');
    expect(premium.statusCode).toBe(412);
    expect((await call(noAccess, 'POST', '/api/templates', base)).statusCode).toBe(412);
    expect((await call(null, 'GET', '/api/templates')).statusCode).toBe(401);
  });

  it('toggles favorites and filters by them', async () => {
    const fav = await create(ben, { name: 'Fav me' });
    const on = await call(ben, 'POST', '/api/templates/favorite', { template_id: fav.template_id });
    expect(on.json()).toEqual({ template_id: fav.template_id, favorite: true });
    expect((await call(ben, 'GET', `/api/templates/${fav.template_id}`)).json().favorite).toBe(true);
    const list = (await call(ben, 'GET', '/api/templates?favorites=true')).json();
    expect(list.templates.map((x: { template_id: number }) => x.template_id)).toEqual([fav.template_id]);
    const off = await call(ben, 'POST', '/api/templates/favorite', { template_id: fav.template_id });
    expect(off.json().favorite).toBe(false);
    expect((await call(ben, 'GET', '/api/templates?favorites=true')).json().total).toBe(0);
  });

  it('sorts, pages by 24, and filters by tag, type, language and search', async () => {
    const who = await buildUser(t.ctx, { access: true });
    const made: { template_id: number; name: string }[] = [];
    for (let i = 0; i < 26; i++) {
      made.push(await create(who, { name: `Pg${String(i).padStart(2, '0')} ${i % 2 ? 'odd' : 'even'}`, language: i < 3 ? 'es' : 'en', type: i < 2 ? 'Blog' : null, tags: i === 5 ? ['Sales'] : [] }));
    }
    const page1 = (await call(who, 'GET', '/api/templates?query=Pg&sortBy=name_asc')).json();
    expect(page1).toMatchObject({ total: 26, page: 1, pageSize: 24 });
    expect(page1.templates).toHaveLength(24);
    expect(page1.templates[0].name).toBe('Pg00 even');
    const page2 = (await call(who, 'GET', '/api/templates?query=Pg&sortBy=name_asc&page=2')).json();
    expect(page2.templates.map((x: { name: string }) => x.name)).toEqual(['Pg24 even', 'Pg25 odd']);
    expect((await call(who, 'GET', '/api/templates?query=Pg&sortBy=name_desc')).json().templates[0].name).toBe('Pg25 odd');
    const newest = (await call(who, 'GET', '/api/templates?query=Pg&sortBy=createdAt_desc')).json();
    expect(newest.templates[0].template_id).toBe(made[25].template_id);
    // Last Used: the actor's last use first, then the last change
    await call(who, 'POST', `/api/templates/${made[3].template_id}/use`);
    const used = (await call(who, 'GET', '/api/templates?query=Pg&sortBy=updatedAt_desc')).json();
    expect(used.templates[0].template_id).toBe(made[3].template_id);
    expect(used.templates[0].usedAt).not.toBeNull();
    // Page 2 from page 1's next_cursor (server/src/db/page-cursor.ts) is page 2 by number in every sort, Last
    // Used's used and unused templates merged; a cursor of other filters is ignored (page read by its number).
    await call(who, 'POST', `/api/templates/${made[24].template_id}/use`);
    type Page = { templates: { template_id: number }[]; total: number; next_cursor: string | null };
    const ids = (p: Page) => p.templates.map((x) => x.template_id);
    const list = async (query: string) => (await call(who, 'GET', `/api/templates?query=Pg&${query}`)).json() as Page;
    for (const sortBy of ['name_asc', 'name_desc', 'createdAt_desc', 'updatedAt_desc']) {
      const first = await list(`sortBy=${sortBy}`);
      const byCursor = await list(`sortBy=${sortBy}&page=2&cursor=${encodeURIComponent(first.next_cursor!)}`);
      expect(ids(byCursor), sortBy).toEqual(ids(await list(`sortBy=${sortBy}&page=2`)));
      expect(new Set([...ids(first), ...ids(byCursor)]).size, sortBy).toBe(26);
      expect([byCursor.total, byCursor.next_cursor], sortBy).toEqual([26, null]);
    }
    expect(ids((await list('sortBy=updatedAt_desc')))[0]).toBe(made[24].template_id);
    const nameCursor = encodeURIComponent((await list('sortBy=name_asc')).next_cursor!);
    expect(ids(await list(`sortBy=name_asc&language=en&page=2&cursor=${nameCursor}`))).toEqual([]);
    const stranger = (await call(ben, 'GET', `/api/templates?query=Pg&sortBy=name_asc&page=2&cursor=${nameCursor}`)).json() as Page;
    expect(stranger.templates.filter((x) => made.some((m) => m.template_id === x.template_id))).toEqual([]);
    // the default sort is the setting
    await t.ctx.db.update(appConfig).set({ value: 'name_desc' }).where(eq(appConfig.key, 'templates_default_sort'));
    const byDefault = (await call(who, 'GET', '/api/templates?query=Pg')).json();
    await t.ctx.db.update(appConfig).set({ value: 'createdAt_desc' }).where(eq(appConfig.key, 'templates_default_sort'));
    expect(byDefault.templates[0].name).toBe('Pg25 odd');
    expect((await call(who, 'GET', '/api/templates?query=Pg&sortBy=bogus')).statusCode).toBe(400);
    // filters
    expect((await call(who, 'GET', '/api/templates?query=Pg&language=es')).json().total).toBe(3);
    expect((await call(who, 'GET', '/api/templates?query=Pg&type=blog')).json().total).toBe(2);
    expect((await call(who, 'GET', '/api/templates/type/Blog?query=Pg')).json().total).toBe(2);
    const tagged = (await call(who, 'GET', '/api/templates/tag/Sales?query=Pg')).json();
    expect(tagged.templates.map((x: { template_id: number }) => x.template_id)).toEqual([made[5].template_id]);
    expect((await call(who, 'GET', '/api/templates?query=odd')).json().total).toBe(13);
    expect((await call(who, 'GET', '/api/templates?query=%25')).json().total).toBe(0);
    // tag and type lists count what the actor would see
    const tagRes = await call(who, 'GET', '/api/templates/tags');
    expect(tagRes.statusCode, tagRes.body).toBe(200);
    const tagList = tagRes.json();
    expect(tagList.tags.find((x: { name: string }) => x.name === 'Sales').count).toBe(1);
    const typeList = (await call(who, 'GET', '/api/templates/types')).json();
    expect(typeList.types.find((x: { name: string }) => x.name === 'Blog').count).toBe(2);
  });

  it('admins manage tags and types; others are refused; deleting one unlinks it', async () => {
    expect((await call(ana, 'POST', '/api/templates/tags', { name: 'Mine' })).statusCode).toBe(403);
    expect((await call(ana, 'POST', '/api/templates/types', { name: 'Mine' })).statusCode).toBe(403);
    const dup = await call(admin, 'POST', '/api/templates/tags', { name: 'sales' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('This tag already exists.');
    expect((await call(admin, 'POST', '/api/templates/types', { name: ' ' })).json().message).toBe("The input can't be empty");
    const tag = (await call(admin, 'POST', '/api/templates/tags', { name: 'Temporary' })).json();
    const type = (await call(admin, 'POST', '/api/templates/types', { name: 'Short-lived' })).json();
    const made = await create(ana, { tags: ['Temporary', 'Sales'], type: 'Short-lived' });
    expect((await call(ana, 'DELETE', `/api/templates/tags/${tag.tag_id}`)).statusCode).toBe(403);
    expect((await call(admin, 'DELETE', `/api/templates/tags/${tag.tag_id}`)).statusCode).toBe(200);
    expect((await call(admin, 'DELETE', `/api/templates/types/${type.type_id}`)).statusCode).toBe(200);
    expect((await call(admin, 'DELETE', `/api/templates/types/${type.type_id}`)).statusCode).toBe(404);
    expect((await call(ana, 'GET', `/api/templates/${made.template_id}`)).json()).toMatchObject({ tags: ['Sales'], type: null });
  });

  it('checks the values given to use a template, per field', async () => {
    const made = await create(ana);
    const missing = await call(ana, 'POST', `/api/templates/${made.template_id}/use`, { values: { Topic: ' ', Words: 'ten', Tone: 'loud' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      message: "The input can't be empty",
      details: { 'values.Topic': "The input can't be empty", 'values.Words': 'This field needs a number.', 'values.Tone': 'Select type must have at least one option' },
    });
    const ok = await call(ana, 'POST', `/api/templates/${made.template_id}/use`, {});
    expect(ok.json()).toMatchObject({ template_id: made.template_id, prompt: null });
  });

  it('exports templates to a JSON file and imports them back as the importer’s copies', async () => {
    const one = await create(ana, { name: 'Exported one', type: 'Email', tags: ['Sales'], language: 'es', editable: true, show_prompt: true });
    const two = await create(ana, { name: 'Exported two', content: 'Only [Thing]' });
    const res = await call(ana, 'GET', `/api/templates/export?ids=${two.template_id},${one.template_id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="?templates-\d{4}-\d{2}-\d{2}\.json/);
    const file = JSON.parse(res.body);
    expect(file).toMatchObject({ format: 'pluma-templates', version: 1 });
    expect(file.templates.map((x: { name: string }) => x.name)).toEqual(['Exported two', 'Exported one']);
    expect(file.templates[1]).toEqual({ ...base, name: 'Exported one', type: 'Email', tags: ['Sales'], language: 'es', public: false, editable: true, show_prompt: true });
    // nothing tied to this install
    expect(Object.keys(file.templates[0]).sort()).toEqual(['content', 'description', 'editable', 'language', 'name', 'public', 'show_prompt', 'tags', 'type']);

    // Ben imports them: his own private copies in his context
    const imported = await call(ben, 'POST', '/api/templates/import', { ...file, templates: file.templates.map((x: object) => ({ ...x, public: true })) });
    expect(imported.statusCode, imported.body).toBe(201);
    const body = imported.json();
    expect(body.imported).toBe(2);
    for (const copy of body.templates) expect(copy).toMatchObject({ user_id: ben.user.userId, public: false, organization_id: null });
    expect(body.templates[1]).toMatchObject({ name: 'Exported one', type: 'Email', tags: ['Sales'], language: 'es', content: base.content });
    expect(body.templates[1].fields).toHaveLength(3);

    // an admin keeps public and adds unknown tags and types; others lose unknown ones
    const withNew = { ...file, templates: [{ ...file.templates[0], public: true, tags: ['Brand new tag'], type: 'Brand new type' }] };
    const byAdmin = (await call(admin, 'POST', '/api/templates/import', withNew)).json();
    expect(byAdmin.templates[0]).toMatchObject({ public: true, tags: ['Brand new tag'], type: 'Brand new type', user_id: admin.user.userId });
    const byBen = (await call(ben, 'POST', '/api/templates/import', { ...withNew, templates: [{ ...withNew.templates[0], tags: ['Unheard of'], type: 'Nor this' }] })).json();
    expect(byBen.templates[0]).toMatchObject({ public: false, tags: [], type: null });

    // invalid entries: nothing is imported
    const before = (await t.ctx.db.select().from(templates)).length;
    const bad = await call(ben, 'POST', '/api/templates/import', { ...file, templates: [file.templates[0], { ...file.templates[1], name: '', content: '[A] [a]' }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toMatchObject({ 'templates.1.name': 'El campo no puede estar vacío', 'templates.1.fields.0': 'Un campo solo puede aparecer una vez en el contenido.' });
    expect((await call(ben, 'POST', '/api/templates/import', { format: 'other', version: 1, exportedAt: '', templates: [] })).statusCode).toBe(400);
    expect((await t.ctx.db.select().from(templates)).length).toBe(before);
    expect((await call(ana, 'GET', '/api/templates/export?ids=abc')).statusCode).toBe(400);
  });

  it('seeds the library once: public, no author, English and Spanish, with number and select fields', async () => {
    await seedTemplates(t.ctx);
    await seedTemplates(t.ctx);
    const seeded = await t.ctx.db.select().from(templates).where(eq(templates.public, true));
    const library = seeded.filter((x) => x.seedKey !== null);
    expect(library).toHaveLength(SEED_TEMPLATES.length);
    expect(library.every((x) => x.userId === null)).toBe(true);
    expect((await t.ctx.db.select().from(templateSeeds)).map((s) => s.name)).toEqual(['library-v1']);
    const es = (await call(ben, 'GET', '/api/templates/public?language=es&sortBy=name_asc')).json();
    expect(es.total).toBe(SEED_TEMPLATES.filter((x) => x.language === 'es').length);
    const first = es.templates[0];
    expect(first).toMatchObject({ author: null, public: true, user_id: null });
    expect(first.abilities).toMatchObject({ edit: false, delete: false });
    const types = new Set(es.templates.flatMap((x: { fields: { type: string }[] }) => x.fields.map((f) => f.type)));
    expect([...types].sort()).toEqual(['number', 'select', 'text']);
    expect((await call(ben, 'GET', '/api/templates/tag/Instagram?language=en')).json().total).toBe(1);
    // an admin deletes one: it stays deleted on the next boot
    await call(admin, 'DELETE', `/api/templates/${first.template_id}`);
    await seedTemplates(t.ctx);
    expect((await call(ben, 'GET', '/api/templates/public?language=es')).json().total).toBe(es.total - 1);
  });
});
