// The organization a request acts in (DESIGN.md §7; spec part 2 §4, §6): resolved from organization_id in
// the query or body into the actor — a member acts with their role, a stranger gets 404 as if it did not
// exist, staff admins act as its Admin — and every list, read and write is scoped to that context.
// Through the real app and database, with conversations and messages as the converted areas.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, messages, userOrganizations } from '../../db/schema';
import { buildOrganization, buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { settleGenerations } from '../ai/generation-registry';

describe('organization-aware actor', () => {
  let t: TestApp;
  let member: BuiltUser;
  let manager: BuiltUser;
  let stranger: BuiltUser;
  let staffAdmin: BuiltUser;
  let staffManager: BuiltUser;
  let organizationId: number;

  beforeAll(async () => {
    t = await createTestApp();
    member = await buildUser(t.ctx, { access: true });
    manager = await buildUser(t.ctx, { access: true });
    stranger = await buildUser(t.ctx, { access: true });
    staffAdmin = await buildUser(t.ctx, { staffRole: 'admin' });
    staffManager = await buildUser(t.ctx, { staffRole: 'manager' });
    const organization = await buildOrganization(t.ctx, [
      { user: member, role: 'member' },
      { user: manager, role: 'manager' },
    ]);
    organizationId = organization.organizationId;
  });
  afterAll(async () => {
    await settleGenerations(t.ctx);
    await t.close();
  });

  const inject = (who: BuiltUser | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: who ? who.auth : {}, ...(payload === undefined ? {} : { payload: payload as object }) });
  const create = (who: BuiltUser, body: Record<string, unknown>) => inject(who, 'POST', '/api/conversations', { name: 'Plan', ...body });
  const listIds = async (who: BuiltUser, query = '') => {
    const res = await inject(who, 'GET', `/api/conversations${query}`);
    expect(res.statusCode).toBe(200);
    return (res.json().conversations as { conversation_id: number }[]).map((c) => c.conversation_id);
  };

  it('a member creates in the organization; the conversation is seen there, not in Personal', async () => {
    const res = await create(member, { organization_id: organizationId });
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({ organization_id: organizationId, abilities: { read: true, update: true, delete: true, chat: true } });
    const personal = await create(member, {});
    expect(personal.json().organization_id).toBeNull();

    expect(await listIds(member, `?organization_id=${organizationId}`)).toEqual([created.conversation_id]);
    expect(await listIds(member)).toEqual([personal.json().conversation_id]);
    // A read by id is scoped too: the organization's conversation is not in Personal, and vice versa.
    expect((await inject(member, 'GET', `/api/conversations/conversation/${created.conversation_id}`)).statusCode).toBe(404);
    expect((await inject(member, 'GET', `/api/conversations/conversation/${created.conversation_id}?organization_id=${organizationId}`)).statusCode).toBe(200);
    expect((await inject(member, 'GET', `/api/conversations/conversation/${personal.json().conversation_id}?organization_id=${organizationId}`)).statusCode).toBe(404);
    // Writes as well: renaming from the wrong context is a 404 and changes nothing.
    const rename = await inject(member, 'PUT', '/api/conversations', { conversation_id: created.conversation_id, name: 'Renamed' });
    expect(rename.statusCode).toBe(404);
    const renameInOrg = await inject(member, 'PUT', '/api/conversations', { conversation_id: created.conversation_id, name: 'Renamed', organization_id: organizationId });
    expect(renameInOrg.statusCode).toBe(200);
    expect(renameInOrg.json().name).toBe('Renamed');
  });

  it('a conversation stays private to its author inside the organization, whatever the role', async () => {
    const mine = (await create(member, { organization_id: organizationId })).json();
    expect(await listIds(manager, `?organization_id=${organizationId}`)).not.toContain(mine.conversation_id);
    const read = await inject(manager, 'GET', `/api/conversations/conversation/${mine.conversation_id}?organization_id=${organizationId}`);
    expect(read.statusCode).toBe(404);
    const remove = await inject(manager, 'DELETE', `/api/conversations/${mine.conversation_id}?organization_id=${organizationId}`);
    expect(remove.statusCode).toBe(404);
    expect(await t.ctx.db.select().from(conversations).where(eq(conversations.conversationId, mine.conversation_id))).toHaveLength(1);
  });

  it('a non-member gets 404 for the organization, exactly as for one that does not exist, and nothing is stored', async () => {
    const before = await t.ctx.db.select().from(conversations);
    for (const id of [organizationId, 2_000_000_000]) {
      const list = await inject(stranger, 'GET', `/api/conversations?organization_id=${id}`);
      expect(list.statusCode).toBe(404);
      const created = await create(stranger, { organization_id: id });
      expect(created.statusCode).toBe(404);
      expect(created.json()).toEqual(list.json());
    }
    // The body of a write is resolved the same way, whatever route it is.
    const message = await inject(stranger, 'GET', `/api/messages?organization_id=${organizationId}`);
    expect(message.statusCode).toBe(404);
    expect(await t.ctx.db.select().from(conversations)).toHaveLength(before.length);
  });

  it('refuses an organization_id that is not an id, or a query and body that disagree', async () => {
    const bad = await inject(member, 'GET', '/api/conversations?organization_id=abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('validation_error');
    const huge = await inject(member, 'GET', '/api/conversations?organization_id=99999999999');
    expect(huge.statusCode).toBe(400);
    const disagree = await inject(member, 'POST', `/api/conversations?organization_id=${organizationId}`, { name: 'x', organization_id: organizationId + 1 });
    expect(disagree.statusCode).toBe(400);
  });

  it('checks the session before the body: an anonymous bad request is a 401, not a 400', async () => {
    const res = await inject(null, 'POST', '/api/conversations', { name: 42, organization_id: 'nope' });
    expect(res.statusCode).toBe(401);
  });

  it('messages carry the organization of their conversation and are listed in its context only', async () => {
    const conversation = (await create(member, { organization_id: organizationId })).json();
    const sent = await inject(member, 'POST', '/api/messages', { conversation_id: conversation.conversation_id, content: 'hello team', stream: false, organization_id: organizationId });
    expect(sent.statusCode).toBe(201);
    expect(sent.json().user_message.organization_id).toBe(organizationId);
    await settleGenerations(t.ctx);
    // Sending into it from Personal is a 404: the conversation is not visible there.
    const fromPersonal = await inject(member, 'POST', '/api/messages', { conversation_id: conversation.conversation_id, content: 'hello', stream: false });
    expect(fromPersonal.statusCode).toBe(404);

    const inOrg = await inject(member, 'GET', `/api/messages/conversation/${conversation.conversation_id}?organization_id=${organizationId}`);
    expect(inOrg.statusCode).toBe(200);
    expect(inOrg.json().messages.length).toBeGreaterThanOrEqual(2);
    expect((await inject(member, 'GET', `/api/messages/conversation/${conversation.conversation_id}`)).statusCode).toBe(404);
    const browsed = await inject(member, 'GET', `/api/messages?favorite=false&organization_id=${organizationId}`);
    expect(browsed.json().messages.map((m: { conversation_id: number }) => m.conversation_id)).toContain(conversation.conversation_id);
    const personal = await inject(member, 'GET', '/api/messages?favorite=false');
    expect(personal.json().messages.map((m: { conversation_id: number }) => m.conversation_id)).not.toContain(conversation.conversation_id);
    const [stored] = await t.ctx.db.select().from(messages).where(eq(messages.messageId, sent.json().user_message.message_id));
    expect(stored.organizationId).toBe(organizationId);
  });

  it('staff admins act in any organization as its Admin; staff managers need a membership', async () => {
    const res = await create(staffAdmin, { organization_id: organizationId });
    expect(res.statusCode).toBe(201);
    expect(res.json().organization_id).toBe(organizationId);
    expect((await create(staffManager, { organization_id: organizationId })).statusCode).toBe(404);
  });

  it('records when a member last used the organization', async () => {
    await t.ctx.db.update(userOrganizations).set({ lastUse: null }).where(eq(userOrganizations.userId, manager.user.userId));
    await listIds(manager, `?organization_id=${organizationId}`);
    const [row] = await t.ctx.db.select().from(userOrganizations).where(eq(userOrganizations.userId, manager.user.userId));
    expect(row.lastUse).toBeInstanceOf(Date);
  });
});
