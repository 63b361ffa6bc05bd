// GET /messages through the real app: the actor's messages across conversations, filtered (favorite,
// role, conversation, text) and paged by message_id; another user's messages never appear.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, messages } from '../../db/schema';
import { buildOrganization, buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';

describe('GET /messages', () => {
  let t: TestApp;
  let owner: BuiltUser;
  let other: BuiltUser;
  let garden: number;
  let travel: number;
  let othersConversation: number;
  let organizationId: number;
  const ids: Record<string, number> = {};

  async function conversation(who: BuiltUser, name: string, organizationId: number | null = null) {
    const [row] = await t.ctx.db.insert(conversations).values({ userId: who.user.userId, name, organizationId }).returning();
    return row.conversationId;
  }
  async function message(key: string, who: BuiltUser, conversationId: number, fields: Partial<typeof messages.$inferInsert>) {
    const [row] = await t.ctx.db
      .insert(messages)
      .values({ conversationId, userId: who.user.userId, role: 'assistant', content: key, status: 'done', ...fields })
      .returning();
    ids[key] = row.messageId;
  }

  beforeAll(async () => {
    t = await createTestApp();
    owner = await buildUser(t.ctx);
    other = await buildUser(t.ctx);
    garden = await conversation(owner, 'Garden notes');
    travel = await conversation(owner, 'Travel');
    othersConversation = await conversation(other, 'Not yours');
    // Oldest first, so message ids grow in this order.
    await message('g1', owner, garden, { role: 'user', content: 'How do I grow Tomatoes?' });
    await message('g2', owner, garden, { content: 'Tomatoes need sun. 100% of the time!', favorite: true });
    await message('t1', owner, travel, { role: 'user', content: 'Plan a trip to Lisbon' });
    await message('t2', owner, travel, { content: 'Lisbon in spring: file_name_here and tomatoes', favorite: true });
    await message('t3', owner, travel, { content: null, status: 'pending' });
    await message('o1', other, othersConversation, { content: 'Tomatoes of another user 100%', favorite: true });
    organizationId = (await buildOrganization(t.ctx, [{ user: owner, role: 'member' }])).organizationId;
    const orgConversation = await conversation(owner, 'Team chat', organizationId);
    await message('org1', owner, orgConversation, { content: 'Tomatoes for the team', favorite: true, organizationId });
  });
  afterAll(() => t.close());

  const list = async (query: string, who: BuiltUser = owner) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/messages${query}`, headers: who.auth });
    return res;
  };
  const keysOf = (body: { messages: { message_id: number }[] }) => body.messages.map((m) => Object.keys(ids).find((k) => ids[k] === m.message_id));

  it("lists the actor's Personal messages newest first, with the conversation's id and name; never another user's", async () => {
    const res = await list('');
    expect(res.statusCode).toBe(200);
    expect(keysOf(res.json())).toEqual(['t3', 't2', 't1', 'g2', 'g1']);
    expect(res.json().next_cursor).toBeNull();
    const first = res.json().messages[1];
    expect(first).toEqual({
      message_id: ids.t2,
      conversation_id: travel,
      conversation_name: 'Travel',
      role: 'assistant',
      snippet: 'Lisbon in spring: file_name_here and tomatoes',
      model: null,
      favorite: true,
      status: 'done',
      createdAt: expect.any(String),
      citations: [],
    });
    expect(res.json().messages[0].snippet).toBeNull();
    expect(keysOf((await list('', other)).json())).toEqual(['o1']);
  });

  it('filters favorites across conversations, role and one conversation; organization_id narrows to that organization', async () => {
    expect(keysOf((await list('?favorite=true')).json())).toEqual(['t2', 'g2']);
    expect(keysOf((await list('?favorite=false')).json())).toEqual(['t3', 't1', 'g1']);
    expect(keysOf((await list('?role=user')).json())).toEqual(['t1', 'g1']);
    expect(keysOf((await list(`?conversation_id=${garden}`)).json())).toEqual(['g2', 'g1']);
    expect(keysOf((await list(`?conversation_id=${garden}&favorite=true&role=assistant`)).json())).toEqual(['g2']);
    expect(keysOf((await list(`?favorite=true&organization_id=${organizationId}`)).json())).toEqual(['org1']);
    // Not a member: the organization does not exist for them.
    expect((await list(`?favorite=true&organization_id=${organizationId}`, other)).statusCode).toBe(404);
    // Another user's conversation id shows nothing of it.
    expect((await list(`?conversation_id=${othersConversation}`)).json().messages).toEqual([]);
  });

  it('pages by message_id with a cursor, without gaps or repeats', async () => {
    const seen: string[] = [];
    let cursor: number | null = null;
    let pages = 0;
    do {
      const res = await list(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().messages.length).toBeLessThanOrEqual(2);
      seen.push(...(keysOf(res.json()) as string[]));
      cursor = res.json().next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(seen).toEqual(['t3', 't2', 't1', 'g2', 'g1']);
    expect(pages).toBe(3);
    expect(keysOf((await list(`?cursor=${ids.t2}`)).json())).toEqual(['t1', 'g2', 'g1']);
  });

  it('searches text case-insensitively; % and _ match only themselves', async () => {
    expect(keysOf((await list('?query=TOMATOES')).json())).toEqual(['t2', 'g2', 'g1']);
    expect(keysOf((await list('?query=tomatoes&favorite=true')).json())).toEqual(['t2', 'g2']);
    // A bare % or _ would match everything as a wildcard.
    expect(keysOf((await list('?query=%25')).json())).toEqual(['g2']);
    expect(keysOf((await list('?query=100%25')).json())).toEqual(['g2']);
    expect(keysOf((await list('?query=_')).json())).toEqual(['t2']);
    expect(keysOf((await list('?query=%5C')).json())).toEqual([]);
    expect(keysOf((await list(`?query=${encodeURIComponent("'; drop table messages; --")}`)).json())).toEqual([]);
    // Blank is no filter.
    expect(keysOf((await list('?query=%20%20')).json())).toHaveLength(5);
  });

  it('refuses a search over 200 characters and a page over 50, in the user\'s language', async () => {
    const tooLong = await list(`?query=${'a'.repeat(201)}`);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toBe('The search text can be at most 200 characters.');
    // Validation runs before sign-in is resolved: the browser's language.
    const spanish = await t.app.inject({ method: 'GET', url: `/api/messages?query=${'a'.repeat(5000)}`, headers: { ...(await buildUser(t.ctx, { lang: 'es' })).auth, 'accept-language': 'en' } });
    expect(spanish.json().message).toBe('El texto a buscar puede tener como máximo 200 caracteres.');
    expect((await list(`?query=${'a'.repeat(200)}`)).statusCode).toBe(200);
    expect((await list('?limit=51')).statusCode).toBe(400);
    expect((await list('?role=system')).statusCode).toBe(400);
    expect((await list('?favorite=maybe')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/messages' })).statusCode).toBe(401);
  });

  it('returns a snippet of a long message around the first match, with its cut ends marked', async () => {
    const long = await conversation(owner, 'Long one');
    const content = `${'a'.repeat(1000)} needle ${'b'.repeat(1000)}`;
    await message('long', owner, long, { content });
    const found = (await list(`?query=NEEDLE&conversation_id=${long}`)).json().messages[0];
    expect(found.snippet.startsWith('…')).toBe(true);
    expect(found.snippet.endsWith('…')).toBe(true);
    expect(found.snippet).toContain(' needle ');
    expect(found.snippet.length).toBe(320 + 2);
    const plain = (await list(`?conversation_id=${long}`)).json().messages[0];
    expect(plain.snippet).toBe(`${'a'.repeat(320)}…`);
  });
});
