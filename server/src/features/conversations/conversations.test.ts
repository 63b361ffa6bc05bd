import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, files, messages } from '../../db/schema';
import { buildOrganization, buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { multipartBody, pdfBytes, pngBytes } from '../files/test-fixtures';

describe('conversations API', () => {
  let t: TestApp;
  let owner: BuiltUser;
  let other: BuiltUser;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await buildUser(t.ctx, { access: true });
    other = await buildUser(t.ctx, { access: true });
  });
  afterAll(() => t.close());

  const create = async (who: BuiltUser, body: Record<string, unknown>) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/conversations', headers: who.auth, payload: body });
    expect(res.statusCode).toBe(201);
    return res.json();
  };
  const list = async (who: BuiltUser, query = '') => {
    const res = await t.app.inject({ url: `/api/conversations${query}`, headers: who.auth });
    expect(res.statusCode).toBe(200);
    return res.json();
  };

  it('creates, reads, updates (model Unset = null) and deletes a conversation with its messages', async () => {
    // Tests run on the offline demo model (no provider key configured).
    const created = await create(owner, { name: '  Launch plan ', model: 'demo', tags: 'work, ideas' });
    expect(created).toMatchObject({ name: 'Launch plan', model: 'demo', archived: false, tags: 'work,ideas', file: null, organization_id: null });
    expect(Object.keys(created).sort()).toEqual(
      ['abilities', 'archived', 'avatar_id', 'conversation_id', 'createdAt', 'file', 'model', 'name', 'organization_id', 'tags', 'updatedAt'].sort(),
    );
    const id = created.conversation_id;

    const read = await t.app.inject({ url: `/api/conversations/conversation/${id}`, headers: owner.auth });
    expect(read.json()).toEqual(created);

    const updated = await t.app.inject({
      method: 'PUT',
      url: '/api/conversations',
      headers: owner.auth,
      payload: { conversation_id: id, name: 'Launch', model: 'Unset', archived: true, tags: ['a', 'b'] },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'Launch', model: null, archived: true, tags: 'a,b' });

    await t.ctx.db.insert(messages).values({ conversationId: id, userId: owner.user.userId, role: 'user', content: 'hi' });
    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/conversations/${id}`, headers: owner.auth });
    expect(deleted.json()).toEqual({ deleted: true });
    expect(await t.ctx.db.select().from(messages).where(eq(messages.conversationId, id))).toEqual([]);
    expect((await t.app.inject({ url: `/api/conversations/conversation/${id}`, headers: owner.auth })).statusCode).toBe(404);
  });

  it('requires a name (translated) and validates ids, sort keys and organization_id', async () => {
    const missing = await t.app.inject({ method: 'POST', url: '/api/conversations', headers: { ...owner.auth, 'accept-language': 'en' }, payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: 'validation_error', details: { name: 'Conversation name is required.' } });
    const blank = await t.app.inject({
      method: 'POST',
      url: '/api/conversations',
      headers: { ...other.auth },
      payload: { name: '  ' },
    });
    expect(blank.json().message).toBe('Conversation name is required.');
    // Worded in the user's saved language (the session is read before the body, platform/http/lang.ts).
    const spanishUser = await buildUser(t.ctx, { lang: 'es' });
    const es = await t.app.inject({ method: 'POST', url: '/api/conversations', headers: { ...spanishUser.auth, 'accept-language': 'en' }, payload: { name: '' } });
    expect(es.json().message).toBe('El nombre de la conversación es obligatorio.');

    for (const url of ['/api/conversations?sortBy=random', '/api/conversations?organization_id=abc', '/api/conversations?limit=101', '/api/conversations/conversation/abc']) {
      const res = await t.app.inject({ url, headers: owner.auth });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error).toBe('validation_error');
    }
    expect((await t.app.inject({ url: '/api/conversations?cursor=garbage', headers: owner.auth })).json().error).toBe('validation_error');
    // A model this server does not offer is refused.
    const model = await t.app.inject({ method: 'POST', url: '/api/conversations', headers: owner.auth, payload: { name: 'x', model: 'gpt-9' } });
    expect(model.statusCode).toBe(400);
    expect(model.json().message).toBe('Unknown model: gpt-9.');
  });

  it('documents the chat routes in the OpenAPI document', async () => {
    const paths = Object.keys((await t.app.inject('/api/docs/json')).json().paths);
    for (const path of ['/api/conversations', '/api/conversations/tags', '/api/conversations/conversation/{id}', '/api/conversations/file/{id}', '/api/messages', '/api/messages/conversation/{id}', '/api/messages/pdf', '/api/messages/word']) {
      expect(paths).toContain(path);
    }
  });

  it('needs a session on every route', async () => {
    const routes = [
      { method: 'GET' as const, url: '/api/conversations' },
      { method: 'GET' as const, url: '/api/conversations/tags' },
      { method: 'GET' as const, url: '/api/conversations/conversation/1' },
      { method: 'POST' as const, url: '/api/conversations', payload: { name: 'x' } },
      { method: 'PUT' as const, url: '/api/conversations', payload: { conversation_id: 1, name: 'x' } },
      { method: 'DELETE' as const, url: '/api/conversations/1' },
      { method: 'POST' as const, url: '/api/conversations/file/1' },
    ];
    for (const route of routes) {
      const res = await t.app.inject(route);
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it("another user's conversation is a 404 on every route and is left unchanged", async () => {
    const theirs = await create(other, { name: 'Private', tags: 'secret' });
    const id = theirs.conversation_id;
    const upload = multipartBody({ name: 'a.png', bytes: pngBytes(), contentType: 'image/png' });
    const attempts = [
      t.app.inject({ url: `/api/conversations/conversation/${id}`, headers: owner.auth }),
      t.app.inject({ method: 'PUT', url: '/api/conversations', headers: owner.auth, payload: { conversation_id: id, name: 'Mine now', archived: true } }),
      t.app.inject({ method: 'DELETE', url: `/api/conversations/${id}`, headers: owner.auth }),
      t.app.inject({ method: 'POST', url: `/api/conversations/file/${id}`, headers: { ...owner.auth, ...upload.headers }, payload: upload.payload }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'not_found', message: 'Not found.' });
    }
    const [row] = await t.ctx.db.select().from(conversations).where(eq(conversations.conversationId, id));
    expect(row).toMatchObject({ name: 'Private', archived: false, fileId: null });
    expect(await t.ctx.db.select().from(files).where(eq(files.userId, owner.user.userId))).toEqual([]);
    // Lists and tags never include it.
    const mine = await list(owner, '?query=Private');
    expect(mine.conversations).toEqual([]);
    const tags = await t.app.inject({ url: '/api/conversations/tags', headers: owner.auth });
    expect(tags.json().tags.map((x: { tag: string }) => x.tag)).not.toContain('secret');
  });

  it('lists with search, tag filter, archived view and each sort key', async () => {
    const user = await buildUser(t.ctx, { access: true });
    const names = ['banana split', 'Apple pie', 'cherry tart', 'apple crumble'];
    const made: Array<{ conversation_id: number; name: string }> = [];
    for (const [i, name] of names.entries()) {
      made.push(await create(user, { name, tags: i % 2 === 0 ? 'fruit,dessert' : 'Dessert' }));
    }
    await create(user, { name: 'Old apple', archived: true, tags: 'fruit' });

    // updatedAt_desc by default: the last one touched first.
    await t.app.inject({ method: 'PUT', url: '/api/conversations', headers: user.auth, payload: { conversation_id: made[1].conversation_id, name: 'Apple pie' } });
    const byUpdated = await list(user);
    expect(byUpdated.total).toBe(4);
    expect(byUpdated.conversations[0].name).toBe('Apple pie');

    expect((await list(user, '?sortBy=createdAt_desc')).conversations.map((c: { name: string }) => c.name)).toEqual([...names].reverse());
    expect((await list(user, '?sortBy=name_asc')).conversations.map((c: { name: string }) => c.name)).toEqual([
      'apple crumble',
      'Apple pie',
      'banana split',
      'cherry tart',
    ]);
    expect((await list(user, '?sortBy=name_desc')).conversations.map((c: { name: string }) => c.name)[0]).toBe('cherry tart');

    const search = await list(user, '?query=APPLE');
    expect(search.conversations.map((c: { name: string }) => c.name).sort()).toEqual(['Apple pie', 'apple crumble']);
    expect((await list(user, '?query=%25')).conversations).toEqual([]);

    const fruit = await list(user, '?tags=fruit');
    expect(fruit.conversations.map((c: { name: string }) => c.name).sort()).toEqual(['banana split', 'cherry tart']);
    expect((await list(user, '?tags=dessert')).total).toBe(4);

    const archived = await list(user, '?archived=true');
    expect(archived.conversations.map((c: { name: string }) => c.name)).toEqual(['Old apple']);

    const tags = await t.app.inject({ url: '/api/conversations/tags?archived=false', headers: user.auth });
    expect(tags.json()).toEqual({ tags: [{ tag: 'dessert', count: 4 }, { tag: 'fruit', count: 2 }] });
    // 'Dessert' and 'dessert' are one tag, shown as first used.
    const allTags = await t.app.inject({ url: '/api/conversations/tags', headers: user.auth });
    expect(allTags.json().tags).toContainEqual({ tag: 'fruit', count: 3 });
  });

  it('pages with limit/offset and with a keyset cursor for every sort key', async () => {
    const user = await buildUser(t.ctx, { access: true });
    // Same names and creation times: the id breaks ties, so no row is skipped or repeated.
    const now = new Date();
    await t.ctx.db.insert(conversations).values(
      Array.from({ length: 23 }, (_, i) => ({ userId: user.user.userId, name: i % 3 === 0 ? 'Same' : `Chat ${String(i).padStart(2, '0')}`, createdAt: now, updatedAt: now })),
    );
    for (const sortBy of ['createdAt_desc', 'updatedAt_desc', 'name_asc', 'name_desc']) {
      const seen: number[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: { conversations: Array<{ conversation_id: number }>; next_cursor: string | null; total: number } = await list(
          user,
          `?sortBy=${sortBy}&limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(page.total).toBe(23);
        seen.push(...page.conversations.map((c) => c.conversation_id));
        cursor = page.next_cursor;
        pages++;
      } while (cursor && pages < 10);
      expect(pages, sortBy).toBe(5);
      expect(new Set(seen).size, sortBy).toBe(23);
      const offsetPage = await list(user, `?sortBy=${sortBy}&limit=5&offset=5`);
      expect(offsetPage.conversations.map((c: { conversation_id: number }) => c.conversation_id)).toEqual(seen.slice(5, 10));
    }
    // A search's page and its total come from one read of its first matches (page-cursor.ts searchRead): pages by
    // offset are those of the cursor walk, the total exact on each ("Chat …" is 15 of the 23; the name is stored
    // lowered, so any case finds it).
    type Page = { conversations: Array<{ conversation_id: number }>; next_cursor: string | null; total: number; total_capped: boolean };
    const ids = (page: Page) => page.conversations.map((c) => c.conversation_id);
    for (const sortBy of ['updatedAt_desc', 'name_asc']) {
      const walked: number[] = [];
      let cursor: string | null = null;
      do {
        const page: Page = await list(user, `?sortBy=${sortBy}&query=cHaT&limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect([page.total, page.total_capped], sortBy).toEqual([15, false]);
        walked.push(...ids(page));
        cursor = page.next_cursor;
      } while (cursor);
      expect(new Set(walked).size, sortBy).toBe(15);
      for (const offset of [0, 4, 12]) {
        const page: Page = await list(user, `?sortBy=${sortBy}&query=CHAT&limit=4&offset=${offset}`);
        expect(ids(page), `${sortBy} ${offset}`).toEqual(walked.slice(offset, offset + 4));
        expect([page.total, page.next_cursor === null], `${sortBy} ${offset}`).toEqual([15, offset === 12]);
      }
      expect(await list(user, `?sortBy=${sortBy}&query=chat&limit=4&offset=16`)).toMatchObject({ conversations: [], total: 15 });
    }
    expect((await list(user)).conversations).toHaveLength(23);
    // Past the end the page carries no count of its own (capped-count.ts countColumn): still the whole total.
    expect(await list(user, '?limit=5&offset=30')).toMatchObject({ conversations: [], total: 23, total_capped: false });
  });

  it('refuses forged cursors with a 400 and caps the total (1,000, or 100 when searching), exact below it', async () => {
    const user = await buildUser(t.ctx, { access: true });
    await t.ctx.db.insert(conversations).values(Array.from({ length: 1001 }, (_, i) => ({ userId: user.user.userId, name: `Bulk ${i}` })));
    const first = await list(user, '?limit=5');
    expect([first.total, first.total_capped]).toEqual([1000, true]);
    const searched = await list(user, '?query=bulk&limit=5');
    expect([searched.total, searched.total_capped]).toEqual([100, true]);
    // Few matches: the page itself tells the total, exact ("Bulk 1000" and nothing else).
    const exact = await list(user, '?query=bulk%201000');
    expect([exact.total, exact.total_capped, exact.conversations.length]).toEqual([1, false, 1]);
    // The next page follows on from the cursor; a cursor of another sort, a huge id or an impossible date is a 400.
    const second = await list(user, `?limit=5&cursor=${encodeURIComponent(first.next_cursor)}`);
    expect(second.conversations.map((c: { conversation_id: number }) => c.conversation_id).every((id: number) => id < first.conversations[4].conversation_id)).toBe(true);
    const forge = (value: unknown) => encodeURIComponent(Buffer.from(JSON.stringify(value)).toString('base64url'));
    for (const cursor of [forge(['name_asc', 'a', 1]), forge(['updatedAt_desc', '2024-01-01T00:00:00Z', 2 ** 40]), forge(['updatedAt_desc', '99999-99-99', 1]), forge(['updatedAt_desc', 'x'.repeat(401), 1]), forge({})]) {
      const res = await t.app.inject({ url: `/api/conversations?cursor=${cursor}`, headers: user.auth });
      expect(res.statusCode, cursor).toBe(400);
    }
  });

  it('stores the resolved organization and lists by it; without it, the Personal context', async () => {
    const user = await buildUser(t.ctx, { access: true });
    const organization = await buildOrganization(t.ctx, [{ user, role: 'member' }]);
    const id = organization.organizationId;
    await create(user, { name: 'Personal one' });
    const team = await create(user, { name: 'Team one', organization_id: id });
    expect(team.organization_id).toBe(id);
    expect((await list(user, `?organization_id=${id}`)).conversations.map((c: { name: string }) => c.name)).toEqual(['Team one']);
    expect((await list(user)).conversations.map((c: { name: string }) => c.name)).toEqual(['Personal one']);
    const bad = await t.app.inject({ method: 'POST', url: '/api/conversations', headers: user.auth, payload: { name: 'x', organization_id: 1.5 } });
    expect(bad.statusCode).toBe(400);
    // An organization the user is not in is a 404 (platform/auth/organization.test.ts has the rest).
    const elsewhere = await t.app.inject({ method: 'POST', url: '/api/conversations', headers: user.auth, payload: { name: 'x', organization_id: id + 1000 } });
    expect(elsewhere.statusCode).toBe(404);
  });

  it('attaches an uploaded file to the conversation', async () => {
    const conversation = await create(owner, { name: 'With a file' });
    const upload = multipartBody({ name: 'brief.pdf', bytes: pdfBytes(), contentType: 'application/pdf' });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/conversations/file/${conversation.conversation_id}`,
      headers: { ...owner.auth, ...upload.headers },
      payload: upload.payload,
    });
    expect(res.statusCode).toBe(200);
    const file = res.json().file;
    expect(file).toMatchObject({ name: 'brief.pdf', type: 'pdf', src: `/api/files/${file.file_id}` });
    const download = await t.app.inject({ url: file.src, headers: owner.auth });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(pdfBytes())).toBe(true);
    const listed = await list(owner, '?query=With%20a%20file');
    expect(listed.conversations[0].file.file_id).toBe(file.file_id);

    const empty = multipartBody(null, { note: 'no file' });
    const missing = await t.app.inject({
      method: 'POST',
      url: `/api/conversations/file/${conversation.conversation_id}`,
      headers: { ...owner.auth, ...empty.headers },
      payload: empty.payload,
    });
    expect(missing.statusCode).toBe(400);
  });
});
