// An organization's own OpenAI key (spec part 2 §3 Organization `openai_api_key`, §7 Organizations): answers
// and enhancements in its conversations reach the provider with that key; Personal scope and an
// organization without a key use the operator's; a changed key takes effect at once; no response carries it.
import { SocketEvents } from '@pluma/common/events';
import type { RunningAiEmulators } from '@pluma/emulators/index';
import { beforeAll, describe, expect, it } from 'vitest';
import { organizationCredentials } from '../../platform/ai/organization-keys';
import { nextEvent } from '../../platform/realtime/socket-test-helpers';
import { buildOrganization, type BuiltUser } from '../../test/factories';
import { endOf, useChatApp, type ChatApp } from '../../test/chat-app';
import type { TestApp } from '../../test/test-app';
import { readOrganizationOpenAiKey } from '../organizations';

const ORG_KEY = 'sk-org-alpha-secret-0001';
const NEW_ORG_KEY = 'sk-org-alpha-secret-0002';

/** What one chat in a scope sent the provider, and every response body the app gave on the way. */
function scopedChat(chat: ChatApp, getAi: () => RunningAiEmulators) {
  const bodies: string[] = [];
  const inject = async (who: BuiltUser, method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) => {
    const res = await chat.t.app.inject({ method, url, headers: who.auth, payload });
    bodies.push(res.body);
    return res;
  };
  const query = (organizationId: number | null) => (organizationId === null ? '' : `?organization_id=${organizationId}`);
  return {
    bodies,
    inject,
    async setKey(admin: BuiltUser, organizationId: number, key: string) {
      const res = await inject(admin, 'POST', `/api/organizations/update${query(organizationId)}`, { organization_id: organizationId, name: `Org ${organizationId}`, openai_api_key: key });
      expect(res.statusCode).toBe(200);
    },
    /** Sends a prompt in a new conversation of the scope; returns the Authorization header the provider got. */
    async answerIn(who: BuiltUser, organizationId: number | null, extra: Record<string, unknown> = {}) {
      const created = await inject(who, 'POST', `/api/conversations${query(organizationId)}`, { name: 'Chat', ...(organizationId === null ? {} : { organization_id: organizationId }) });
      expect(created.statusCode).toBe(201);
      const conversationId = created.json().conversation_id as number;
      const socket = await chat.connect(who);
      const res = await inject(who, 'POST', `/api/messages${query(organizationId)}`, { content: '[words:5] Hello', conversation_id: conversationId, stream: true, ...extra });
      expect(res.statusCode).toBe(201);
      const end = await endOf(socket, res.json().assistant_message.message_id as number);
      bodies.push(JSON.stringify(end));
      expect(end.message).toMatchObject({ status: 'done' });
      const listed = await inject(who, 'GET', `/api/messages/conversation/${conversationId}${query(organizationId)}`);
      expect(listed.statusCode).toBe(200);
      return { authorization: getAi().openai.stats.lastHeaders?.authorization, conversationId, model: getAi().openai.stats.lastRequest?.model };
    },
  };
}

describe('AI calls in organization scope', () => {
  const chat = useChatApp();
  let ai: RunningAiEmulators;
  let t: TestApp;
  beforeAll(() => {
    ({ ai, t } = chat);
  });

  it("a message in an organization with a key reaches the provider with the organization's key; Personal with the operator's", async () => {
    const scoped = scopedChat(chat, () => ai);
    const admin = await chat.userWithWords(10_000);
    const member = await chat.userWithWords(10_000);
    const org = await buildOrganization(t.ctx, [
      { user: admin, role: 'admin' },
      { user: member, role: 'member' },
    ]);
    await scoped.setKey(admin, org.organizationId, ORG_KEY);

    expect((await scoped.answerIn(member, org.organizationId)).authorization).toBe(`Bearer ${ORG_KEY}`);
    expect((await scoped.answerIn(admin, org.organizationId)).authorization).toBe(`Bearer ${ORG_KEY}`);
    // The same user in Personal scope: the operator's key (OPENAI_API_KEY 'test').
    expect((await scoped.answerIn(member, null)).authorization).toBe('Bearer test');

    // Prompt enhancement in the organization uses its key too.
    const created = await scoped.inject(member, 'POST', `/api/conversations?organization_id=${org.organizationId}`, { name: 'Enhance', organization_id: org.organizationId });
    const socket = await chat.connect(member);
    const ended = nextEvent(socket, SocketEvents.messageStreamEnhanceEnd, 15_000);
    ai.openai.resetStats();
    const enhance = await scoped.inject(member, 'POST', `/api/messages?organization_id=${org.organizationId}`, { content: '[words:5] cats', conversation_id: created.json().conversation_id, enhance: true, stream: true });
    expect(enhance.statusCode).toBe(202);
    scoped.bodies.push(JSON.stringify(await ended));
    expect(ai.openai.stats.lastHeaders?.authorization).toBe(`Bearer ${ORG_KEY}`);

    // Conversations stay private to their author inside the organization: another member cannot answer in it.
    const own = await scoped.answerIn(admin, org.organizationId);
    const intruder = await scoped.inject(member, 'POST', `/api/messages?organization_id=${org.organizationId}`, { content: 'hi', conversation_id: own.conversationId, stream: true });
    expect(intruder.statusCode).toBe(404);

    // No response (HTTP or socket) carries the key.
    expect(scoped.bodies.join('\n')).not.toContain(ORG_KEY);
    expect(scoped.bodies.join('\n')).not.toContain('org-alpha-secret');
  });

  it("an organization without a key uses the operator's; a changed or cleared key takes effect at once", async () => {
    const scoped = scopedChat(chat, () => ai);
    const admin = await chat.userWithWords(10_000);
    const org = await buildOrganization(t.ctx, [{ user: admin, role: 'admin' }]);
    expect((await scoped.answerIn(admin, org.organizationId)).authorization).toBe('Bearer test');

    // Set after an answer was written (the "no key" read is cached): the save drops it.
    await scoped.setKey(admin, org.organizationId, ORG_KEY);
    expect((await scoped.answerIn(admin, org.organizationId)).authorization).toBe(`Bearer ${ORG_KEY}`);
    await scoped.setKey(admin, org.organizationId, NEW_ORG_KEY);
    expect((await scoped.answerIn(admin, org.organizationId)).authorization).toBe(`Bearer ${NEW_ORG_KEY}`);
    // Saved as shown (masked): the key stays.
    await scoped.setKey(admin, org.organizationId, '••••••••0002');
    expect((await scoped.answerIn(admin, org.organizationId)).authorization).toBe(`Bearer ${NEW_ORG_KEY}`);
    await scoped.setKey(admin, org.organizationId, '');
    expect((await scoped.answerIn(admin, org.organizationId)).authorization).toBe('Bearer test');

    // Another organization's key is never used for this one.
    const other = await buildOrganization(t.ctx, [{ user: admin, role: 'admin' }]);
    await scoped.setKey(admin, other.organizationId, 'sk-other-org-key-7777');
    expect((await scoped.answerIn(admin, org.organizationId)).authorization).toBe('Bearer test');
    expect((await scoped.answerIn(admin, other.organizationId)).authorization).toBe('Bearer sk-other-org-key-7777');
    expect(scoped.bodies.join('\n')).not.toMatch(/sk-org-alpha-secret|sk-other-org-key/);
  });

  it('the unsealed key is read once per organization while cached; Personal scope reads nothing', async () => {
    const admin = await chat.userWithWords(10_000);
    const org = await buildOrganization(t.ctx, [{ user: admin, role: 'admin' }]);
    await scopedChat(chat, () => ai).setKey(admin, org.organizationId, ORG_KEY);
    let reads = 0;
    const counting = async (ctx: typeof t.ctx, id: number) => {
      reads++;
      return readOrganizationOpenAiKey(ctx, id);
    };
    expect(await organizationCredentials(t.ctx, null, counting)).toBeUndefined();
    expect(reads).toBe(0);
    const now = Date.now();
    const [a, b] = await Promise.all([organizationCredentials(t.ctx, org.organizationId, counting, now), organizationCredentials(t.ctx, org.organizationId, counting, now)]);
    expect(a).toEqual({ openaiApiKey: ORG_KEY });
    expect(b).toBe(a);
    // (The save above dropped the entry, so this was a fresh read: one for both callers.)
    expect(reads).toBe(1);
    // Past the TTL it is read again.
    await organizationCredentials(t.ctx, org.organizationId, counting, now + 60_000);
    expect(reads).toBe(2);
  });
});

describe('AI calls in organization scope, operator without an OpenAI key', () => {
  const chat = useChatApp((ai) => ({ OPENAI_API_KEY: '', OPENAI_BASE_URL: ai.openai.url, DEMO_AI: 'true' }));

  it("the organization's key makes its answers run on OpenAI; Personal stays on the demo model", async () => {
    const scoped = scopedChat(chat, () => chat.ai);
    const admin = await chat.userWithWords(10_000);
    const org = await buildOrganization(chat.t.ctx, [{ user: admin, role: 'admin' }]);
    await scoped.setKey(admin, org.organizationId, ORG_KEY);
    chat.ai.openai.resetStats();
    await scoped.answerIn(admin, null);
    // The demo model is the in-process emulator: the shared OpenAI emulator saw nothing.
    expect(chat.ai.openai.stats.generations).toBe(0);
    const inOrg = await scoped.answerIn(admin, org.organizationId);
    expect(inOrg).toMatchObject({ authorization: `Bearer ${ORG_KEY}`, model: 'gpt-4o-mini' });
    expect(scoped.bodies.join('\n')).not.toContain(ORG_KEY);
  });

  it("a message may name a GPT model explicitly where the organization's key reaches it, not in Personal", async () => {
    const scoped = scopedChat(chat, () => chat.ai);
    const admin = await chat.userWithWords(10_000);
    const org = await buildOrganization(chat.t.ctx, [{ user: admin, role: 'admin' }]);
    await scoped.setKey(admin, org.organizationId, ORG_KEY);
    const inOrg = await scoped.answerIn(admin, org.organizationId, { model: 'gpt-4o-mini' });
    expect(inOrg).toMatchObject({ authorization: `Bearer ${ORG_KEY}`, model: 'gpt-4o-mini' });
    const personal = await scoped.inject(admin, 'POST', '/api/conversations', { name: 'Mine' });
    const refused = await scoped.inject(admin, 'POST', '/api/messages', { content: 'Hello', conversation_id: personal.json().conversation_id, stream: true, model: 'gpt-4o-mini' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ details: { model: expect.any(String) } });
  });
});
