// Topics and hashtags through the real app, the OpenAI emulator and a real database (spec part 2 §2; issue 14
// item 5): a generation asks the default model for the count in the language (and the avatar's voice), reads
// the answer, keeps it as history typed 3 (topics) or 2 (hashtags) and charges its words; bad input, 412,
// provider failures and another user's or another context's rows change nothing and reveal nothing.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { avatars, ideaRequests, users } from '../../db/schema';
import { buildOrganization, buildUser, type BuiltUser } from '../../test/factories';
import { useAiTestApp } from '../../test/ai-app';
import { testDbKind } from '../../test/test-db';

type Turn = { role: string; content: string };

describe(`ideas API (${testDbKind()})`, () => {
  // Listening: the Stop test closes a real request.
  const ai = useAiTestApp({ listen: true });
  const { call } = ai;
  let ana: BuiltUser;
  let ben: BuiltUser;
  let noAccess: BuiltUser;
  const sentTurns = () => ai.emulator.stats.lastRequest?.messages as Turn[];
  const wordsOf = async (who: BuiltUser) => {
    const [row] = await ai.t.ctx.db.select({ available: users.availableWords, held: users.heldWords }).from(users).where(eq(users.userId, who.user.userId));
    return row;
  };
  const rowsOf = (who: BuiltUser) => ai.t.ctx.db.select().from(ideaRequests).where(eq(ideaRequests.userId, who.user.userId));

  beforeAll(async () => {
    ana = await buildUser(ai.t.ctx, { access: true });
    ben = await buildUser(ai.t.ctx, { access: true });
    noAccess = await buildUser(ai.t.ctx);
  });

  it('generates topics: asks for the count in the language, keeps a history row typed 3 and charges the answer', async () => {
    const before = await wordsOf(ana);
    const res = await call(ana, 'POST', '/api/ideas/topics', { subject: '  Healthy breakfast ideas  ', count: 3 });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ message_type_id: 3, kind: 'topics', subject: 'Healthy breakfast ideas', language: 'en', count: 3, avatar_id: null, abilities: { read: true, delete: true } });
    // The emulator answers in markdown with a bulleted list of 3 to 5 entries: the list is taken, cut to 3.
    expect(body.items).toHaveLength(3);
    expect(body.items.every((item: string) => item.length > 0 && !item.startsWith('-') && !item.includes('**'))).toBe(true);

    const [system, user] = sentTurns();
    expect(system.role).toBe('system');
    expect(system.content).toContain('exactly 3 distinct topic ideas');
    expect(system.content).toContain('English');
    expect(system.content).toContain('JSON array');
    expect(user).toEqual({ role: 'user', content: 'Healthy breakfast ideas' });
    expect(ai.emulator.stats.lastRequest?.model).toBe('gpt-4o-mini');

    const [row] = await ai.t.ctx.db.select().from(ideaRequests).where(eq(ideaRequests.ideaId, body.idea_id));
    expect(row.words).toBeGreaterThan(0);
    const after = await wordsOf(ana);
    expect(after).toEqual({ available: before.available - row.words, held: 0 });
    // A use of the app: the customers tables' 'Last used' (issue 30 item 8), as a chat message is.
    const [used] = await ai.t.ctx.db.select({ at: users.lastUsedAt }).from(users).where(eq(users.userId, ana.user.userId));
    expect(used?.at).toBeInstanceOf(Date);
  });

  it('generates hashtags in Spanish: #words without repeats, typed 2', async () => {
    // [echo]: the emulator answers with the transcript, so the hashtags read are the subject's.
    const res = await call(ana, 'POST', '/api/ideas/hashtags', { subject: '[echo] desayunos #Salud #desayuno #salud', count: 10, language: 'es' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ message_type_id: 2, kind: 'hashtags', language: 'es', count: 10, items: ['#Salud', '#desayuno'] });
    expect(sentTurns()[0].content).toContain('exactly 10 distinct, relevant hashtags');
    expect(sentTurns()[0].content).toContain('Spanish');

    // The emulator's markdown answer: its list becomes hashtags, at most the count.
    const plain = await call(ana, 'POST', '/api/ideas/hashtags', { subject: 'Trail running', count: 12 });
    expect(plain.statusCode).toBe(201);
    const items: string[] = plain.json().items;
    expect(items.length).toBeGreaterThan(0);
    expect(items.length).toBeLessThanOrEqual(12);
    expect(items.every((tag) => /^#[\p{L}\p{N}_]+$/u.test(tag))).toBe(true);
    expect(plain.json().language).toBe('en');
  });

  it("answers in the user's own language unless one is asked for", async () => {
    const lucia = await buildUser(ai.t.ctx, { access: true, lang: 'es' });
    const res = await call(lucia, 'POST', '/api/ideas/topics', { subject: 'Viajes baratos', count: 2 });
    expect(res.json()).toMatchObject({ language: 'es', count: 2 });
    expect(sentTurns()[0].content).toContain('written in Spanish');
    expect((await call(lucia, 'POST', '/api/ideas/topics', { subject: 'Cheap travel', count: 2, language: 'en' })).json().language).toBe('en');
    expect(sentTurns()[0].content).toContain('written in English');
  });

  it("uses an avatar's voice; another user's private avatar is a 404", async () => {
    // Written directly: making an avatar through the API needs the user's own AI key (avatars.test.ts).
    const [row] = await ai.t.ctx.db.insert(avatars).values({ userId: ana.user.userId, name: 'Chef', context: 'You are a cheerful pastry chef from Lyon.' }).returning();
    const avatar = { avatar_id: row.avatarId };
    const res = await call(ana, 'POST', '/api/ideas/topics', { subject: 'Desserts', count: 2, avatar_id: avatar.avatar_id });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ avatar_id: avatar.avatar_id, avatar_name: 'Chef', items: expect.any(Array) });
    expect(sentTurns()[0].content).toContain('You are a cheerful pastry chef from Lyon.');

    const rowsBefore = (await rowsOf(ben)).length;
    const refused = await call(ben, 'POST', '/api/ideas/topics', { subject: 'Desserts', count: 2, avatar_id: avatar.avatar_id });
    expect(refused.statusCode).toBe(404);
    expect((await rowsOf(ben)).length).toBe(rowsBefore);
    expect(await wordsOf(ben)).toMatchObject({ held: 0 });
  });

  it('refuses bad input with the spec texts and stores nothing', async () => {
    const before = (await rowsOf(ana)).length;
    const cases: [string, object, string][] = [
      ['/api/ideas/topics', { subject: '   ', count: 3 }, "The input can't be empty"],
      ['/api/ideas/topics', { count: 3 }, 'This field is required.'],
      ['/api/ideas/topics', { subject: 'x'.repeat(1001), count: 3 }, 'The subject can have at most 1000 characters.'],
      ['/api/ideas/topics', { subject: 'Cats', count: 1 }, 'Ask for 2 to 5 topics.'],
      ['/api/ideas/topics', { subject: 'Cats', count: 6 }, 'Ask for 2 to 5 topics.'],
      ['/api/ideas/topics', { subject: 'Cats', count: 2.5 }, 'Ask for 2 to 5 topics.'],
      ['/api/ideas/hashtags', { subject: 'Cats', count: 9 }, 'Ask for 10 to 20 hashtags.'],
      ['/api/ideas/hashtags', { subject: 'Cats', count: 21 }, 'Ask for 10 to 20 hashtags.'],
      ['/api/ideas/hashtags', { subject: 'Cats', count: 10, language: 'fr' }, 'This value is not one of the choices.'],
    ];
    for (const [url, payload, message] of cases) {
      const res = await call(ana, 'POST', url, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toBe('validation_error');
      if (!message.startsWith('This value')) expect(res.json().message, JSON.stringify(payload)).toBe(message);
    }
    const eva = await buildUser(ai.t.ctx, { access: true, lang: 'es' });
    expect((await call(eva, 'POST', '/api/ideas/hashtags', { subject: 'Gatos', count: 30 })).json().message).toBe('Pide de 10 a 20 hashtags.');
    expect((await call(eva, 'POST', '/api/ideas/topics', { subject: ' ', count: 3 })).json().message).toBe('El campo no puede estar vacío');
    expect((await call(ana, 'POST', '/api/ideas/stories', { subject: 'Cats', count: 3 })).statusCode).toBe(404);
    expect((await rowsOf(ana)).length).toBe(before);
  });

  it('pages the history newest first per generator; delete is the owner’s, another user’s id is a 404', async () => {
    const user = await buildUser(ai.t.ctx, { access: true });
    // Eleven topics and one hashtags row, written directly: the paging is what is tested here.
    const base = Date.parse('2026-01-01T00:00:00Z');
    await ai.t.ctx.db.insert(ideaRequests).values([
      ...Array.from({ length: 11 }, (_, i) => ({ userId: user.user.userId, messageTypeId: 3, subject: `Subject ${i}`, language: 'en', count: 2, items: [`Topic ${i}`], createdAt: new Date(base + i * 60_000) })),
      { userId: user.user.userId, messageTypeId: 2, subject: 'Tags', language: 'en', count: 10, items: ['#a'], createdAt: new Date(base) },
    ]);
    const first = (await call(user, 'GET', '/api/ideas/topics')).json();
    expect(first).toMatchObject({ total: 11, page: 1, page_size: 10 });
    expect(first.ideas.map((i: { subject: string }) => i.subject).slice(0, 3)).toEqual(['Subject 10', 'Subject 9', 'Subject 8']);
    expect(first.ideas).toHaveLength(10);
    const second = (await call(user, 'GET', '/api/ideas/topics?page=2')).json();
    expect(second.ideas.map((i: { subject: string }) => i.subject)).toEqual(['Subject 0']);
    const hashtags = (await call(user, 'GET', '/api/ideas/hashtags')).json();
    expect(hashtags).toMatchObject({ total: 1, ideas: [{ message_type_id: 2, items: ['#a'] }] });
    expect((await call(user, 'GET', '/api/ideas/topics?page=0')).statusCode).toBe(400);

    const target = first.ideas[0].idea_id;
    expect((await call(ben, 'DELETE', `/api/ideas/${target}`)).statusCode).toBe(404);
    expect((await call(ben, 'GET', '/api/ideas/topics')).json().ideas.some((i: { idea_id: number }) => i.idea_id === target)).toBe(false);
    expect((await call(user, 'DELETE', `/api/ideas/${target}`)).json()).toEqual({ deleted: true });
    expect((await call(user, 'DELETE', `/api/ideas/${target}`)).statusCode).toBe(404);
    expect((await call(user, 'GET', '/api/ideas/topics')).json().total).toBe(10);
  });

  it('keeps an organization’s generations in that organization; a non-member gets a 404', async () => {
    const member = await buildUser(ai.t.ctx, { access: true });
    const org = await buildOrganization(ai.t.ctx, [{ user: member, role: 'member' }]);
    const inOrg = await call(member, 'POST', `/api/ideas/topics?organization_id=${org.organizationId}`, { subject: 'Team offsite', count: 2 });
    expect(inOrg.statusCode).toBe(201);
    const ideaId = inOrg.json().idea_id;
    const [row] = await ai.t.ctx.db.select().from(ideaRequests).where(eq(ideaRequests.ideaId, ideaId));
    expect(row.organizationId).toBe(org.organizationId);

    expect((await call(member, 'GET', '/api/ideas/topics')).json().total).toBe(0);
    expect((await call(member, 'GET', `/api/ideas/topics?organization_id=${org.organizationId}`)).json().ideas.map((i: { idea_id: number }) => i.idea_id)).toEqual([ideaId]);
    expect((await call(member, 'DELETE', `/api/ideas/${ideaId}`)).statusCode).toBe(404);
    expect((await call(ben, 'GET', `/api/ideas/topics?organization_id=${org.organizationId}`)).statusCode).toBe(404);
    expect((await call(ben, 'POST', `/api/ideas/topics?organization_id=${org.organizationId}`, { subject: 'x', count: 2 })).statusCode).toBe(404);
    expect((await call(member, 'DELETE', `/api/ideas/${ideaId}?organization_id=${org.organizationId}`)).statusCode).toBe(200);
  });

  it('is a 412 without access or without words; a provider failure is a 502 naming it, stores nothing and keeps no hold', async () => {
    expect((await call(noAccess, 'POST', '/api/ideas/topics', { subject: 'Cats', count: 2 })).statusCode).toBe(412);
    expect((await call(noAccess, 'GET', '/api/ideas/topics')).statusCode).toBe(412);
    expect((await call(noAccess, 'DELETE', '/api/ideas/1')).statusCode).toBe(412);
    expect((await call(null, 'GET', '/api/ideas/topics')).statusCode).toBe(401);

    const broke = await buildUser(ai.t.ctx, { access: true });
    await ai.t.ctx.db.update(users).set({ availableWords: 0 }).where(eq(users.userId, broke.user.userId));
    const exhausted = await call(broke, 'POST', '/api/ideas/hashtags', { subject: 'Cats', count: 10 });
    expect(exhausted.statusCode).toBe(412);
    expect((await rowsOf(broke)).length).toBe(0);

    const before = (await rowsOf(ana)).length;
    const failed = await call(ana, 'POST', '/api/ideas/topics', { subject: '[error:500] Cats', count: 2 });
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toMatchObject({ error: 'provider_error', provider: 'openai' });
    expect(failed.json().message.length).toBeGreaterThan(0);
    expect((await rowsOf(ana)).length).toBe(before);
    expect((await wordsOf(ana)).held).toBe(0);
  });

  it('charges only the words left: a small balance cuts the answer at its hold', async () => {
    const small = await buildUser(ai.t.ctx, { access: true });
    await ai.t.ctx.db.update(users).set({ availableWords: 40 }).where(eq(users.userId, small.user.userId));
    const res = await call(small, 'POST', '/api/ideas/topics', { subject: 'Gardening', count: 5 });
    // The answer stops after 40 words (heading, paragraph and the start of the list); what was read is kept.
    expect(res.statusCode).toBe(201);
    expect(res.json().items.length).toBeGreaterThan(0);
    const [row] = await rowsOf(small);
    expect(row.words).toBe(40);
    expect(await wordsOf(small)).toEqual({ available: 0, held: 0 });
  });

  it('Stop (issue 30 item 1): a closed request aborts the provider stream, keeps nothing and charges nothing', async () => {
    const user = await buildUser(ai.t.ctx, { access: true });
    const before = await wordsOf(user);
    const { streams, clientAborts } = ai.emulator.stats;
    const stop = new AbortController();
    // Slow: it would write for about 25 s (its 500 tokens at 20 a second) unless stopped.
    const request = fetch(`${ai.url}/api/ideas/topics`, {
      method: 'POST',
      headers: { ...user.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ subject: '[rate:20] Slow topics', count: 3 }),
      signal: stop.signal,
    });
    // The provider is streaming and the words are held.
    await expect.poll(() => ai.emulator.stats.streams, { timeout: 15_000 }).toBe(streams + 1);
    expect((await wordsOf(user)).held).toBeGreaterThan(0);
    stop.abort();
    await expect(request).rejects.toThrow();
    // The server ended the provider call, released the hold and kept nothing.
    await expect.poll(() => ai.emulator.stats.clientAborts, { timeout: 15_000 }).toBe(clientAborts + 1);
    await expect.poll(() => wordsOf(user), { timeout: 15_000 }).toEqual(before);
    expect(await rowsOf(user)).toHaveLength(0);
  });

  it('Stop pressed at once: a request closed while its sign-in and gates are checked keeps nothing either', async () => {
    const user = await buildUser(ai.t.ctx, { access: true });
    const before = await wordsOf(user);
    // The close can come before the route's handler runs (its 'close' then already past); each delay lands in a
    // different part of that window. [rate:200]: an unstopped answer would end, be kept and charged in ~2.5 s.
    for (const delay of [0, 1, 2, 4, 8, 16]) {
      const stop = new AbortController();
      const request = fetch(`${ai.url}/api/ideas/topics`, {
        method: 'POST',
        headers: { ...user.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ subject: `[rate:200] Stopped at once ${delay}`, count: 3 }),
        signal: stop.signal,
      });
      await new Promise((resolve) => setTimeout(resolve, delay));
      stop.abort();
      await expect(request).rejects.toThrow();
    }
    // Long enough for an unstopped answer to have ended and been kept.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    expect(await rowsOf(user)).toHaveLength(0);
    expect(await wordsOf(user)).toEqual(before);
  });
});
