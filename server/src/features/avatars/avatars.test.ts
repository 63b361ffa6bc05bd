// Avatars through the real app and database (spec part 2 §2 "Avatars and trainings", §5, §6, §7 "Avatars";
// part 1 §1 own key, §2 out-of-credits; issue 13 items 1–2): every route, and its refusals — another user's
// avatar or file is a 404, a public avatar is read-only and its files are not downloadable, 412 without access,
// 409 without the user's own key, the public toggle for admins only.
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { avatarFiles, avatars, conversations, files, knowledgeFiles } from '../../db/schema';
import { buildOrganization, buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { testDbKind } from '../../test/test-db';
import { multipartBody, pdfBytes } from '../files/test-fixtures';

const KEY = 'sk-proj-avatar-tests-0123456789';

describe(`avatars API (${testDbKind()})`, () => {
  let t: TestApp;
  let ana: BuiltUser; // has access and a key
  let ben: BuiltUser; // has access and a key
  let noKey: BuiltUser; // has access, no key
  let noAccess: BuiltUser; // a key, no access
  let admin: BuiltUser; // staff admin with a key
  let organizationId: number;

  type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
  const call = (who: BuiltUser | null, method: Method, url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who?.auth ?? {}, ...(payload ? { payload } : {}) });
  const upload = (who: BuiltUser, avatarId: number, file: { name: string; bytes: Buffer }, editable = false) => {
    const { payload, headers } = multipartBody(file);
    return t.app.inject({ method: 'POST', url: `/api/avatars/${editable ? 'add-editable-file' : 'add-file'}/${avatarId}`, payload, headers: { ...headers, ...who.auth } });
  };
  const create = async (who: BuiltUser, body: object = {}) => {
    const res = await call(who, 'POST', '/api/avatars', { name: 'Writer', context: 'You write short, warm posts.', ...body });
    expect(res.statusCode).toBe(201);
    return res.json();
  };
  const saveKey = (who: BuiltUser) => call(who, 'PUT', '/api/users/ai-key', { api_key: KEY });

  beforeAll(async () => {
    t = await createTestApp();
    ana = await buildUser(t.ctx, { name: 'Ana', access: true });
    ben = await buildUser(t.ctx, { name: 'Ben', access: true, lang: 'es' });
    noKey = await buildUser(t.ctx, { access: true });
    noAccess = await buildUser(t.ctx);
    admin = await buildUser(t.ctx, { staffRole: 'admin' });
    for (const who of [ana, ben, noAccess, admin]) expect((await saveKey(who)).statusCode).toBe(200);
    organizationId = (await buildOrganization(t.ctx, [{ user: ana, role: 'admin' }, { user: ben, role: 'member' }])).organizationId;
  });
  afterAll(async () => t?.close());

  it('creates an avatar with the spec fields and the owner abilities; refuses an empty context, translated', async () => {
    const created = await create(ana, { name: ' Coach ', description: 'Fitness' });
    expect(Object.keys(created).sort()).toEqual(
      [
        'abilities',
        'assistant_id',
        'author',
        'avatar_files',
        'avatar_id',
        'context',
        'createdAt',
        'description',
        'files_count',
        'refine',
        'kind',
        'name',
        'organization_id',
        'public',
        'super_fetch_assistant',
        'updatedAt',
        'user_id',
      ].sort(),
    );
    expect(created).toMatchObject({ name: 'Coach', public: false, kind: null, organization_id: null, user_id: ana.user.userId, avatar_files: [] });
    expect(created.abilities).toEqual({ read: true, update: true, delete: true, publish: false, clone: true, add_file: true, refine: true, sync: true });
    expect(created.refine).toEqual({ status: 'idle', error_code: null, error_message: null, updatedAt: null });
    const empty = await call(ben, 'POST', '/api/avatars', { name: 'X', context: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details.context).toBe('El campo no puede estar vacío');
    const noName = await call(ana, 'POST', '/api/avatars', { name: '', context: 'ok' });
    expect(noName.json().details.name).toBe("The input can't be empty");
  });

  it('needs access (412) everywhere and the own key (409) to create, clone or combine', async () => {
    const mine = await create(ana);
    for (const [method, url, body] of [
      ['GET', '/api/avatars', undefined],
      ['GET', '/api/avatars/public/all', undefined],
      ['GET', `/api/avatars/${mine.avatar_id}`, undefined],
      ['POST', '/api/avatars', { name: 'A', context: 'B' }],
      ['POST', '/api/avatars/clone', { avatar_id: mine.avatar_id, name: 'C' }],
    ] as const) {
      const res = await call(noAccess, method, url, body);
      expect(res.statusCode).toBe(412);
      expect(res.json()).toMatchObject({ error: 'premium_required', message: 'This is a premium feature. Please, upgrade your account.' });
    }
    for (const [url, body] of [
      ['/api/avatars', { name: 'A', context: 'B' }],
      ['/api/avatars/clone', { avatar_id: mine.avatar_id, name: 'C' }],
      ['/api/avatars/combine', { selected_avatar_id: mine.avatar_id, target_avatar_id: mine.avatar_id + 1, name: 'D' }],
    ] as const) {
      const res = await call(noKey, 'POST', url, body);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ error: 'ai_key_required', message: 'Avatars need your own AI provider API key. Add it in Settings first.' });
    }
    // The words the creation modal shows (issue 30 item 3), in the user's language.
    const sinClave = await buildUser(t.ctx, { access: true, lang: 'es' });
    const es = await call(sinClave, 'POST', '/api/avatars', { name: 'A', context: 'B' });
    expect(es.statusCode).toBe(409);
    expect(es.json()).toMatchObject({ error: 'ai_key_required', message: 'Los avatares necesitan tu propia clave de API de un proveedor de IA. Agrégala primero en Configuración.' });
    // Without a key one still reads (lists are empty) — only creating needs it.
    expect((await call(noKey, 'GET', '/api/avatars')).json()).toEqual({ avatars: [], total: 0, total_capped: false, next_cursor: null });
    expect((await call(null, 'GET', '/api/avatars')).statusCode).toBe(401);
  });

  it("another user's private avatar is a 404 on every route, and nothing changes", async () => {
    const secret = await create(ana, { name: 'Secret', context: 'private instructions' });
    const id = secret.avatar_id;
    const pdf = multipartBody({ name: 'a.pdf', bytes: pdfBytes() });
    const attempts: [Method, string, object | undefined][] = [
      ['GET', `/api/avatars/${id}`, undefined],
      ['PUT', '/api/avatars', { avatar_id: id, name: 'Mine' }],
      ['PUT', `/api/avatars/add-context/${id}`, { context: 'hijack' }],
      ['DELETE', `/api/avatars/${id}`, undefined],
      ['POST', '/api/avatars/clone', { avatar_id: id, name: 'Copy' }],
      ['POST', '/api/avatars/combine', { selected_avatar_id: id, target_avatar_id: id + 1000, name: 'Mix' }],
      ['GET', `/api/avatars/${id}/files`, undefined],
    ];
    for (const [method, url, body] of attempts) expect({ url, status: (await call(ben, method, url, body)).statusCode }).toEqual({ url, status: 404 });
    const up = await t.app.inject({ method: 'POST', url: `/api/avatars/add-file/${id}`, payload: pdf.payload, headers: { ...pdf.headers, ...ben.auth } });
    expect(up.statusCode).toBe(404);
    expect(await t.ctx.db.select().from(files).where(eq(files.userId, ben.user.userId))).toHaveLength(0);
    const [row] = await t.ctx.db.select().from(avatars).where(eq(avatars.avatarId, id));
    expect(row).toMatchObject({ name: 'Secret', context: 'private instructions' });
    // Not in Ben's list, nor the community's.
    expect((await call(ben, 'GET', '/api/avatars')).json().avatars.map((a: { avatar_id: number }) => a.avatar_id)).not.toContain(id);
    expect((await call(ben, 'GET', '/api/avatars/public/all')).json().avatars.map((a: { avatar_id: number }) => a.avatar_id)).not.toContain(id);
  });

  it('lists own avatars with search; updates the context; the public toggle is for admins only', async () => {
    const owner = await buildUser(t.ctx, { name: 'Olga', access: true });
    await saveKey(owner);
    const a = await create(owner, { name: 'Travel guide', description: 'Trips' });
    await create(owner, { name: 'Chef', description: 'Recipes and travel food' });
    const list = (await call(owner, 'GET', '/api/avatars')).json();
    expect(list.total).toBe(2);
    expect((await call(owner, 'GET', '/api/avatars?query=travel')).json().total).toBe(2);
    expect((await call(owner, 'GET', '/api/avatars?query=chef')).json().avatars.map((x: { name: string }) => x.name)).toEqual(['Chef']);
    expect((await call(owner, 'GET', '/api/avatars?query=100%25')).json().total).toBe(0);
    // Pages by offset (issue 31 item 1): the next one read from next_cursor is the same as by offset, equal
    // change times across the boundary; a cursor for another offset or another user is ignored.
    await t.ctx.db.insert(avatars).values(Array.from({ length: 5 }, (_, i) => ({ userId: owner.user.userId, name: `Bulk ${i}`, context: 'x' })));
    type Page = { avatars: { avatar_id: number }[]; total: number; next_cursor: string | null };
    const page = async (who: BuiltUser, query: string) => (await call(who, 'GET', `/api/avatars?limit=3&${query}`)).json() as Page;
    const ids = (p: Page) => p.avatars.map((x) => x.avatar_id);
    const first = await page(owner, 'offset=0');
    const byCursor = await page(owner, `offset=3&cursor=${encodeURIComponent(first.next_cursor!)}`);
    expect(ids(byCursor)).toEqual(ids(await page(owner, 'offset=3')));
    expect(new Set([...ids(first), ...ids(byCursor)]).size).toBe(6);
    expect([byCursor.total, (await page(owner, `offset=6&cursor=${encodeURIComponent(byCursor.next_cursor!)}`)).next_cursor]).toEqual([7, null]);
    expect(ids(await page(owner, `offset=6&cursor=${encodeURIComponent(first.next_cursor!)}`))).toEqual(ids(await page(owner, 'offset=6')));
    expect(await page(ben, `offset=3&cursor=${encodeURIComponent(first.next_cursor!)}`)).toMatchObject({ avatars: [], next_cursor: null });
    await t.ctx.db.delete(avatars).where(and(eq(avatars.userId, owner.user.userId), like(avatars.name, 'Bulk %')));

    const updated = await call(owner, 'PUT', `/api/avatars/add-context/${a.avatar_id}`, { context: 'New context', name: 'Guide' });
    expect(updated.json()).toMatchObject({ context: 'New context', name: 'Guide' });
    expect((await call(owner, 'PUT', `/api/avatars/add-context/${a.avatar_id}`, { context: '' })).json().message).toBe("The input can't be empty");

    // The owner may not publish: 403, unchanged.
    const publish = await call(owner, 'PUT', '/api/avatars', { avatar_id: a.avatar_id, public: true });
    expect(publish.statusCode).toBe(403);
    expect((await call(owner, 'GET', `/api/avatars/${a.avatar_id}`)).json().public).toBe(false);
    // An admin may (and sees it: admins edit any avatar).
    const adminView = (await call(admin, 'GET', `/api/avatars/${a.avatar_id}`)).json();
    expect(adminView.abilities).toMatchObject({ update: true, delete: true, publish: true });
    expect((await call(admin, 'PUT', '/api/avatars', { avatar_id: a.avatar_id, public: true })).json().public).toBe(true);
    const community = (await call(ben, 'GET', '/api/avatars/public/all?query=guide')).json();
    expect(community.avatars).toHaveLength(1);
    expect(community.avatars[0]).toMatchObject({ avatar_id: a.avatar_id, author: { name: 'Olga' } });
    expect(community.avatars[0].abilities).toEqual({ read: true, update: false, delete: false, publish: false, clone: true, add_file: false, refine: false, sync: false });
  });

  it('a public avatar is read-only for others and its files are never downloadable by them; a clone copies context and files', async () => {
    const owned = await create(ana, { name: 'Shared', context: 'Shared context' });
    const file = await upload(ana, owned.avatar_id, { name: 'handbook.pdf', bytes: pdfBytes() });
    expect(file.statusCode).toBe(201);
    const fileId = file.json().file_id;
    expect(file.json()).toMatchObject({ editable: false, file_data: { name: 'handbook.pdf', type: 'pdf' }, abilities: { download: true, edit_text: false, delete: true } });
    await call(admin, 'PUT', '/api/avatars', { avatar_id: owned.avatar_id, public: true });

    // Ben reads it and its file names, but changes nothing and downloads nothing.
    const seen = (await call(ben, 'GET', `/api/avatars/${owned.avatar_id}`)).json();
    expect(seen.avatar_files).toHaveLength(1);
    expect(seen.avatar_files[0].abilities).toEqual({ download: false, edit_text: false, delete: false });
    expect((await call(ben, 'GET', `/api/avatars/${owned.avatar_id}/files/${fileId}`)).statusCode).toBe(404);
    expect((await call(ben, 'GET', `/api/files/${fileId}`)).statusCode).toBe(404);
    expect((await call(ben, 'PUT', '/api/avatars', { avatar_id: owned.avatar_id, context: 'mine' })).statusCode).toBe(403);
    expect((await call(ben, 'DELETE', `/api/avatars/${owned.avatar_id}/files/${fileId}`)).statusCode).toBe(403);
    expect((await call(ben, 'DELETE', `/api/avatars/${owned.avatar_id}`)).statusCode).toBe(403);
    const pdf = multipartBody({ name: 'b.pdf', bytes: pdfBytes() });
    expect((await t.app.inject({ method: 'POST', url: `/api/avatars/add-file/${owned.avatar_id}`, payload: pdf.payload, headers: { ...pdf.headers, ...ben.auth } })).statusCode).toBe(403);

    // The owner downloads it.
    const download = await call(ana, 'GET', `/api/avatars/${owned.avatar_id}/files/${fileId}`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toContain('attachment');
    expect(download.rawPayload.equals(pdfBytes())).toBe(true);

    // Clone: name required; the copy has the context and the file link, but Ben still cannot download it.
    expect((await call(ben, 'POST', '/api/avatars/clone', { avatar_id: owned.avatar_id, name: ' ' })).statusCode).toBe(400);
    const clone = await call(ben, 'POST', '/api/avatars/clone', { avatar_id: owned.avatar_id, name: 'My copy' });
    expect(clone.statusCode).toBe(201);
    expect(clone.json()).toMatchObject({ name: 'My copy', context: 'Shared context', user_id: ben.user.userId, public: false, files_count: 1 });
    expect(clone.json().avatar_files[0].abilities).toEqual({ download: false, edit_text: false, delete: true });
    expect((await call(ben, 'GET', `/api/avatars/${clone.json().avatar_id}/files/${fileId}`)).statusCode).toBe(404);
    // Removing it from the clone leaves the original's file whole.
    expect((await call(ben, 'DELETE', `/api/avatars/${clone.json().avatar_id}/files/${fileId}`)).statusCode).toBe(200);
    expect(await t.ctx.db.select().from(files).where(eq(files.fileId, fileId))).toHaveLength(1);
    expect((await call(ana, 'GET', `/api/avatars/${owned.avatar_id}/files`)).json().avatar_files).toHaveLength(1);
    // The owner deletes it: the link and the file are gone.
    expect((await call(ana, 'DELETE', `/api/avatars/${owned.avatar_id}/files/${fileId}`)).statusCode).toBe(200);
    expect(await t.ctx.db.select().from(files).where(eq(files.fileId, fileId))).toHaveLength(0);
    expect((await call(ana, 'DELETE', `/api/avatars/${owned.avatar_id}/files/${fileId}`)).statusCode).toBe(404);
  });

  it('editable files: .txt only, edited text saved as .txt (a new file, the old one gone); refuses other types', async () => {
    const a = await create(ana, { name: 'Notes' });
    const wrong = await upload(ana, a.avatar_id, { name: 'doc.pdf', bytes: pdfBytes() }, true);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Only .txt files can be edited.');
    const disguised = await upload(ana, a.avatar_id, { name: 'doc.txt', bytes: pdfBytes() }, true);
    expect(disguised.statusCode).toBe(400);
    expect(await t.ctx.db.select().from(avatarFiles).where(eq(avatarFiles.avatarId, a.avatar_id))).toHaveLength(0);
    const video = await upload(ana, a.avatar_id, { name: 'clip.mp4', bytes: Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.alloc(32)]) });
    expect([400]).toContain(video.statusCode);

    const txt = await upload(ana, a.avatar_id, { name: 'notes.txt', bytes: Buffer.from('first draft') }, true);
    expect(txt.statusCode).toBe(201);
    expect(txt.json()).toMatchObject({ editable: true, abilities: { download: true, edit_text: true, delete: true } });
    const oldId = txt.json().file_id;
    // Queued for indexing by the knowledge job (never extracted in the request).
    expect(await t.ctx.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.fileId, oldId))).toHaveLength(1);
    const empty = await call(ana, 'PUT', `/api/avatars/${a.avatar_id}/files/${oldId}/text`, { content: '  ' });
    expect(empty.statusCode).toBe(400);
    const edited = await call(ana, 'PUT', `/api/avatars/${a.avatar_id}/files/${oldId}/text`, { content: 'second draft, ñ' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ editable: true, file_data: { name: 'notes.txt', type: 'txt' } });
    const newId = edited.json().file_id;
    expect(newId).not.toBe(oldId);
    expect(await t.ctx.db.select().from(files).where(eq(files.fileId, oldId))).toHaveLength(0);
    expect(await t.ctx.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.fileId, oldId))).toHaveLength(0);
    expect(await t.ctx.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.fileId, edited.json().file_id))).toHaveLength(1);
    expect((await call(ana, 'GET', `/api/avatars/${a.avatar_id}/files/${newId}`)).body).toBe('second draft, ñ');
    // A non-editable file cannot be edited; another user cannot edit at all.
    const pdf = (await upload(ana, a.avatar_id, { name: 'x.pdf', bytes: pdfBytes() })).json();
    expect((await call(ana, 'PUT', `/api/avatars/${a.avatar_id}/files/${pdf.file_id}/text`, { content: 'x' })).statusCode).toBe(400);
    expect((await call(ben, 'PUT', `/api/avatars/${a.avatar_id}/files/${newId}/text`, { content: 'x' })).statusCode).toBe(404);
    // Deleting the avatar removes its files.
    expect((await call(ana, 'DELETE', `/api/avatars/${a.avatar_id}`)).json()).toEqual({ deleted: true });
    expect(await t.ctx.db.select().from(files).where(eq(files.fileId, newId))).toHaveLength(0);
    expect((await call(ana, 'GET', `/api/avatars/${a.avatar_id}`)).statusCode).toBe(404);
  });

  it('creates a blank editable .txt file to write in (issue 30 item 20); refusals: no name, another user, no access', async () => {
    const a = await create(ana, { name: 'Blank notes' });
    const created = await call(ana, 'POST', `/api/avatars/${a.avatar_id}/files/text`, { name: ' Weekly plan.txt ' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      editable: true,
      file_data: { name: 'Weekly plan.txt', type: 'txt' },
      index: { status: 'none' },
      abilities: { download: true, edit_text: true, delete: true },
    });
    const fileId = created.json().file_id;
    // Nothing to index until it has text; it reads blank and takes its first text like any editable file.
    expect(await t.ctx.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.fileId, fileId))).toHaveLength(0);
    expect((await call(ana, 'GET', `/api/avatars/${a.avatar_id}/files/${fileId}`)).body.trim()).toBe('');
    const written = await call(ana, 'PUT', `/api/avatars/${a.avatar_id}/files/${fileId}/text`, { content: 'Monday: long run.' });
    expect(written.statusCode).toBe(200);
    expect(written.json()).toMatchObject({ file_data: { name: 'Weekly plan.txt' }, index: { status: 'queued' } });

    const noName = await call(ben, 'POST', `/api/avatars/${a.avatar_id}/files/text`, { name: '  ' });
    expect(noName.statusCode).toBe(400);
    const own = await create(ben, { name: 'Ben notes' });
    const unnamed = await call(ben, 'POST', `/api/avatars/${own.avatar_id}/files/text`, { name: '.txt' });
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json().details.name).toBe('El campo no puede estar vacío');
    expect((await call(ben, 'POST', `/api/avatars/${a.avatar_id}/files/text`, { name: 'Mine' })).statusCode).toBe(404);
    expect((await call(noAccess, 'POST', `/api/avatars/${a.avatar_id}/files/text`, { name: 'Mine' })).statusCode).toBe(412);
    expect(await t.ctx.db.select().from(avatarFiles).where(eq(avatarFiles.avatarId, a.avatar_id))).toHaveLength(1);
  });

  it('combines two avatars into a new one with both contexts and files', async () => {
    const first = await create(ana, { name: 'One', context: 'Context one' });
    const second = await create(ana, { name: 'Two', context: 'Context two' });
    await upload(ana, first.avatar_id, { name: 'one.txt', bytes: Buffer.from('one') });
    await upload(ana, second.avatar_id, { name: 'two.txt', bytes: Buffer.from('two') });
    const same = await call(ana, 'POST', '/api/avatars/combine', { selected_avatar_id: first.avatar_id, target_avatar_id: first.avatar_id, name: 'X' });
    expect(same.statusCode).toBe(400);
    const res = await call(ana, 'POST', '/api/avatars/combine', { selected_avatar_id: second.avatar_id, target_avatar_id: first.avatar_id, name: 'Both' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ name: 'Both', context: 'Context one\n\nContext two', files_count: 2 });
    expect(res.json().avatar_id).not.toBe(first.avatar_id);
  });

  it('in an organization an avatar is private to its author and to that context', async () => {
    const inOrg = await call(ben, 'POST', '/api/avatars', { name: 'Team voice', context: 'Team', organization_id: organizationId });
    expect(inOrg.json().organization_id).toBe(organizationId);
    const id = inOrg.json().avatar_id;
    // Ana is the organization's Admin, yet the avatar is Ben's own.
    expect((await call(ana, 'GET', `/api/avatars/${id}?organization_id=${organizationId}`)).statusCode).toBe(404);
    expect((await call(ana, 'GET', `/api/avatars?organization_id=${organizationId}`)).json().total).toBe(0);
    // Ben sees it in the organization, not in Personal.
    expect((await call(ben, 'GET', `/api/avatars?organization_id=${organizationId}`)).json().total).toBe(1);
    expect((await call(ben, 'GET', `/api/avatars/${id}`)).statusCode).toBe(404);
    // A non-member naming the organization gets a 404.
    expect((await call(noKey, 'GET', `/api/avatars?organization_id=${organizationId}`)).statusCode).toBe(404);
  });

  it('the defaults are filtered out of lists; admins reset them with POST /users/resetDefaultAvatar', async () => {
    const superFetch = await call(ben, 'GET', '/api/avatars/super-fetch');
    expect(superFetch.statusCode).toBe(200);
    expect(superFetch.json()).toMatchObject({ kind: 'super_fetch', super_fetch_assistant: true });
    expect((await call(ben, 'GET', '/api/avatars/super-fetch')).json().avatar_id).toBe(superFetch.json().avatar_id);
    expect((await call(ben, 'GET', '/api/avatars')).json().avatars.map((a: { kind: string | null }) => a.kind)).not.toContain('super_fetch');
    // The defaults cannot be published.
    expect((await call(admin, 'PUT', '/api/avatars', { avatar_id: superFetch.json().avatar_id, public: true })).statusCode).toBe(403);

    expect((await call(ben, 'POST', '/api/users/resetDefaultAvatar', { user_id: ben.user.userId })).statusCode).toBe(403);
    const reset = await call(admin, 'POST', '/api/users/resetDefaultAvatar', { user_id: ben.user.userId });
    expect(reset.json()).toEqual({ reset: 1 });
    expect(await t.ctx.db.select().from(avatars).where(eq(avatars.avatarId, superFetch.json().avatar_id))).toHaveLength(0);
    expect((await call(ben, 'GET', '/api/avatars/super-fetch')).json().avatar_id).not.toBe(superFetch.json().avatar_id);
    expect((await call(admin, 'POST', '/api/users/resetDefaultAvatar')).json()).toEqual({ reset: 0 });
  });

  it("the avatar page's chat: POST /conversations with avatar_id starts a conversation the avatar answers; another's private avatar is a 404", async () => {
    const mine = await create(ana, { name: 'Chatty' });
    const res = await call(ana, 'POST', '/api/conversations', { name: 'Chatty', avatar_id: mine.avatar_id });
    expect(res.statusCode).toBe(201);
    expect(res.json().avatar_id).toBe(mine.avatar_id);
    const before = await t.ctx.db.select().from(conversations);
    const refused = await call(ben, 'POST', '/api/conversations', { name: 'Stolen', avatar_id: mine.avatar_id });
    expect(refused.statusCode).toBe(404);
    expect(await t.ctx.db.select().from(conversations)).toHaveLength(before.length);
    expect((await call(ana, 'POST', '/api/conversations', { name: 'Plain' })).json().avatar_id).toBeNull();
  });

  it("the spec's path-addressed file calls reach the same files: add-file/{avatar}/{assistant}, editable-file/{file_id}, file/{fileId}/{openaiFileId}/{assistantId}", async () => {
    const a = await create(ana, { name: 'Spec paths' });
    const form = (file: { name: string; bytes: Buffer } | null, fields: Record<string, string> = {}) => multipartBody(file, fields);
    const post = (who: BuiltUser, url: string, file: { name: string; bytes: Buffer } | null) => {
      const { payload, headers } = form(file);
      return t.app.inject({ method: 'POST', url, payload, headers: { ...headers, ...who.auth } });
    };
    const put = (who: BuiltUser, fileId: number | string, file: { name: string; bytes: Buffer } | null, fields: Record<string, string> = {}) => {
      const { payload, headers } = form(file, fields);
      return t.app.inject({ method: 'PUT', url: `/api/avatars/editable-file/${fileId}`, payload, headers: { ...headers, ...who.auth } });
    };
    const linked = async (avatarId: number) => (await t.ctx.db.select().from(avatarFiles).where(eq(avatarFiles.avatarId, avatarId))).map((l) => l.fileId);

    // {b} is the avatar's provider assistant: 'null' while it has none; another one is a 404 and stores nothing.
    const pdf = await post(ana, `/api/avatars/add-file/${a.avatar_id}/null`, { name: 'guide.pdf', bytes: pdfBytes() });
    expect(pdf.statusCode, pdf.body).toBe(201);
    expect(pdf.json()).toMatchObject({ editable: false, file_data: { name: 'guide.pdf', type: 'pdf' } });
    const filesBefore = await t.ctx.db.select().from(files);
    expect((await post(ana, `/api/avatars/add-file/${a.avatar_id}/asst_other`, { name: 'x.pdf', bytes: pdfBytes() })).statusCode).toBe(404);
    expect((await post(ben, `/api/avatars/add-file/${a.avatar_id}/null`, { name: 'x.pdf', bytes: pdfBytes() })).statusCode).toBe(404);
    expect((await post(ben, `/api/avatars/add-editable-file/${a.avatar_id}/null`, { name: 'x.txt', bytes: Buffer.from('x') })).statusCode).toBe(404);
    expect(await t.ctx.db.select().from(files)).toHaveLength(filesBefore.length);
    // Once the avatar has an assistant, that id is the one to name.
    await t.ctx.db.update(avatars).set({ assistantId: 'asst_spec1' }).where(eq(avatars.avatarId, a.avatar_id));
    expect((await post(ana, `/api/avatars/add-editable-file/${a.avatar_id}/null`, { name: 'n.txt', bytes: Buffer.from('x') })).statusCode).toBe(404);
    const txt = await post(ana, `/api/avatars/add-editable-file/${a.avatar_id}/asst_spec1`, { name: 'notes.txt', bytes: Buffer.from('first draft') });
    expect(txt.statusCode, txt.body).toBe(201);
    expect(txt.json()).toMatchObject({ editable: true, file_data: { type: 'txt' } });
    const wrongType = await post(ana, `/api/avatars/add-editable-file/${a.avatar_id}/asst_spec1`, { name: 'doc.pdf', bytes: pdfBytes() });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().message).toBe('Only .txt files can be edited.');
    const noFile = await post(ana, `/api/avatars/add-file/${a.avatar_id}/asst_spec1`, null);
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().message).toBe('Please choose a file.');

    // PUT /avatars/editable-file/{file_id}: the new text as a .txt file, saved in place of the old one.
    const oldId = txt.json().file_id as number;
    expect((await put(ben, oldId, { name: 'hack.txt', bytes: Buffer.from('mine now') })).statusCode).toBe(404);
    const notTxt = await put(ana, oldId, { name: 'notes.pdf', bytes: pdfBytes() });
    expect(notTxt.statusCode).toBe(400);
    expect(notTxt.json().message).toBe('Only .txt files can be edited.');
    const blank = await put(ana, oldId, { name: 'notes.txt', bytes: Buffer.from('   ') });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe("The input can't be empty");
    expect((await put(ana, pdf.json().file_id, { name: 'guide.txt', bytes: Buffer.from('x') })).statusCode).toBe(400);
    expect((await put(ana, oldId, { name: 'notes.txt', bytes: Buffer.from('x') }, { avatar_id: String(a.avatar_id + 100000) })).statusCode).toBe(404);
    const edited = await put(ana, oldId, { name: 'notes.txt', bytes: Buffer.from('second draft, ñ') }, { avatar_id: String(a.avatar_id) });
    expect(edited.statusCode, edited.body).toBe(200);
    const newId = edited.json().file_id as number;
    expect(newId).not.toBe(oldId);
    expect((await call(ana, 'GET', `/api/avatars/${a.avatar_id}/files/${newId}`)).body).toBe('second draft, ñ');
    expect(await linked(a.avatar_id)).toEqual(expect.arrayContaining([newId]));
    expect(await linked(a.avatar_id)).not.toContain(oldId);

    // DELETE /avatars/file/{fileId}/{openaiFileId}/{assistantId}: no provider copy ('null'), the avatar's assistant.
    expect((await call(ben, 'DELETE', `/api/avatars/file/${newId}/null/asst_spec1`)).statusCode).toBe(404);
    expect((await call(ana, 'DELETE', `/api/avatars/file/${newId}/null/asst_other`)).statusCode).toBe(404);
    expect((await call(ana, 'DELETE', `/api/avatars/file/${newId}/file-abc/asst_spec1`)).statusCode).toBe(404);
    expect((await call(ana, 'DELETE', `/api/avatars/file/${newId}/null/bad%20id`)).statusCode).toBe(400);
    expect(await linked(a.avatar_id)).toContain(newId);
    expect((await call(ana, 'DELETE', `/api/avatars/file/${newId}/null/asst_spec1`)).json()).toEqual({ deleted: true });
    expect(await linked(a.avatar_id)).not.toContain(newId);
    expect(await t.ctx.db.select().from(files).where(eq(files.fileId, newId))).toHaveLength(0);
    expect((await call(ana, 'DELETE', `/api/avatars/file/${newId}/null/asst_spec1`)).statusCode).toBe(404);
  });

  it('validates ids', async () => {
    for (const url of ['/api/avatars/abc', '/api/avatars/0', '/api/avatars/99999999999', '/api/avatars/1/files/x']) {
      expect((await call(ana, 'GET', url)).statusCode).toBe(400);
    }
    expect((await call(ana, 'GET', '/api/avatars/2147483000')).statusCode).toBe(404);
  });
});
