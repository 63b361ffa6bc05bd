// Issue 30 item 9: a template whose prompt is hidden (show_prompt off) never reaches a user who may not read it,
// on any path that carries a template's content: GET (one, list), use, export, POST /messages with
// { template_id, values } (the model gets the filled prompt, the chat shows the template's name and values),
// the socket frames of that answer, GET message pages and lists, Regenerate, a shared message, and a workflow's
// run (POST /user_workflows/{id}/run, POST /messages { user_workflow_id }, GET workflows and runs). The owner and
// staff still read it; show_prompt on still shows it. Each as another user, against the OpenAI emulator.
import { encodeWorkflowValues } from '@pluma/common/rules/workflow-values';
import { beforeAll, describe, expect, it } from 'vitest';
import { campaignResources, campaigns, campaignUsers, templates } from '../../db/schema';
import { buildOrganization, buildUser, type BuiltUser } from '../../test/factories';
import { endOf, useChatApp } from '../../test/chat-app';
import type { TestApp } from '../../test/test-app';

const SECRET = 'ZEBRA-SECRET-RECIPE';
const CONTENT = `${SECRET}: write a [Kind: poem/story/] about [Topic]`;

describe('a hidden template prompt stays on the server', () => {
  const chat = useChatApp();
  let t: TestApp;
  let owner: BuiltUser;
  let admin: BuiltUser;
  let templateId: number;

  const call = (who: BuiltUser, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api${url}`, headers: who.auth, ...(payload ? { payload } : {}) });
  /** The response, asserted free of the hidden prompt (also its first words alone). */
  const clean = <R extends { body: string }>(res: R): R => {
    expect(res.body).not.toContain(SECRET);
    expect(res.body).not.toContain('write a poem about');
    return res;
  };

  beforeAll(async () => {
    t = chat.t;
    owner = await buildUser(t.ctx, { access: true });
    admin = await buildUser(t.ctx, { access: true, staffRole: 'admin' });
    const [row] = await t.ctx.db
      .insert(templates)
      .values({ name: 'Hidden recipe', description: 'A secret', content: CONTENT, public: true, showPrompt: false, userId: owner.user.userId })
      .returning();
    templateId = row.templateId;
  });

  it('templates: GET, list, use and export give another user no hidden prompt; the owner and staff read it', async () => {
    const ben = await buildUser(t.ctx, { access: true });
    const one = clean(await call(ben, 'GET', `/templates/${templateId}`));
    expect(one.statusCode).toBe(200);
    expect(one.json().content).toBeNull();
    expect(one.json().fields.map((f: { name: string }) => f.name)).toEqual(['Kind', 'Topic']);
    expect(clean(await call(ben, 'GET', '/templates?query=Hidden')).json().templates).toHaveLength(1);
    expect(clean(await call(ben, 'GET', '/templates/public?query=Hidden')).json().templates).toHaveLength(1);
    const used = clean(await call(ben, 'POST', `/templates/${templateId}/use`, { values: { Kind: 'poem', Topic: 'tea [words:20]' } }));
    expect(used.statusCode).toBe(200);
    expect(used.json().prompt).toBeNull();
    expect(clean(await call(ben, 'GET', `/templates/export?ids=${templateId}`)).statusCode).toBe(403);

    expect((await call(owner, 'GET', `/templates/${templateId}`)).json().content).toBe(CONTENT);
    expect((await call(owner, 'POST', `/templates/${templateId}/use`, { values: { Kind: 'poem', Topic: 'tea [words:20]' } })).json().prompt).toBe(`${SECRET}: write a poem about tea [words:20]`);
    expect((await call(admin, 'GET', `/templates/${templateId}`)).json().content).toBe(CONTENT);
  });

  it('POST /messages { template_id, values }: the model gets the filled prompt, the chat, frames, pages, lists, Regenerate and a share show a label', async () => {
    const ben = await chat.userWithWords(10_000);
    const socket = await chat.connect(ben);
    const frames: string[] = [];
    socket.onAny((event: string, payload: unknown) => frames.push(`${event} ${JSON.stringify(payload)}`));
    const conversationId = await chat.newConversation(ben);

    const sent = clean(await chat.send(ben, { conversation_id: conversationId, template_id: templateId, values: { Kind: 'poem', Topic: 'tea [words:20]' } }));
    expect(sent.statusCode, sent.body).toBe(201);
    const { user_message: prompt, assistant_message: pending } = sent.json();
    const ended = endOf(socket, pending.message_id);
    expect(prompt.content).toBe('Hidden recipe\nKind: poem\nTopic: tea [words:20]');
    expect(pending.prompt).toBe('Hidden recipe\nKind: poem\nTopic: tea [words:20]');
    expect((await chat.messageRow(prompt.message_id)).modelContent).toBe(`${SECRET}: write a poem about tea [words:20]`);
    await ended;
    const answer = await chat.messageRow(pending.message_id);
    expect(answer.status).toBe('done');
    // Applying it is a use ("Last Used").
    expect((await call(ben, 'GET', `/templates/${templateId}`)).json().usedAt).not.toBeNull();

    const again = clean(await chat.send(ben, { conversation_id: conversationId, message_id: pending.message_id, regenerate: true }));
    expect(again.statusCode, again.body).toBeLessThan(300);
    await endOf(socket, again.json().assistant_message.message_id);

    expect(frames.some((f) => f.includes(String(pending.message_id)))).toBe(true);
    for (const frame of frames) expect(frame).not.toContain(SECRET);
    clean(await call(ben, 'GET', `/messages/conversation/${conversationId}`));
    clean(await call(ben, 'GET', '/messages'));
    clean(await call(ben, 'GET', '/messages?query=Hidden'));
    const share = clean(await call(ben, 'POST', '/messages/share', { message_id: prompt.message_id }));
    expect(share.statusCode, share.body).toBeLessThan(300);
    const token = String(share.json().path).split('/').pop();
    expect(clean(await t.app.inject({ method: 'GET', url: `/api/shared/${token}` })).statusCode).toBe(200);

    // A follow-up turn still gives the model the filled prompt ([echo]: the emulator answers with what it got).
    const followUp = await chat.send(ben, { conversation_id: conversationId, content: 'And now a shorter one [echo]' });
    expect(followUp.statusCode, followUp.body).toBe(201);
    await endOf(socket, followUp.json().assistant_message.message_id);
    expect((await chat.messageRow(followUp.json().assistant_message.message_id)).content).toContain(`${SECRET}: write a poem about tea`);

    // Edited, the message is the user's own text: the hidden prompt no longer stands in for it.
    const edited = await call(ben, 'PUT', '/messages', { message_id: prompt.message_id, content: 'My own words' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await chat.messageRow(prompt.message_id)).modelContent).toBeNull();
  });

  it('POST /messages with a template: the owner sees the filled prompt; refusals save nothing', async () => {
    const conversationId = await chat.newConversation(owner);
    const mine = await chat.send(owner, { conversation_id: conversationId, template_id: templateId, values: { Kind: 'story', Topic: 'rain [words:20]' }, stream: false });
    expect(mine.statusCode, mine.body).toBe(201);
    expect(mine.json().user_message.content).toBe(`${SECRET}: write a story about rain [words:20]`);
    expect((await chat.messageRow(mine.json().user_message.message_id)).modelContent).toBeNull();

    const ben = await chat.userWithWords(10_000);
    const benChat = await chat.newConversation(ben);
    const [privateRow] = await t.ctx.db.insert(templates).values({ name: 'Private', description: 'd', content: 'Only [X]', userId: owner.user.userId }).returning();
    expect((await chat.send(ben, { conversation_id: benChat, template_id: privateRow.templateId, values: { X: 'a' } })).statusCode).toBe(404);
    expect((await chat.send(ben, { conversation_id: benChat, template_id: 999_999, values: {} })).statusCode).toBe(404);
    const bad = await chat.send(ben, { conversation_id: benChat, template_id: templateId, values: { Kind: 'song', Topic: ' ' } });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().details).sort()).toEqual(['values.Kind', 'values.Topic']);
    const both = await chat.send(ben, { conversation_id: benChat, template_id: templateId, values: { Kind: 'poem', Topic: 'tea [words:20]' }, content: 'mine' });
    expect(both.statusCode).toBe(400);
    expect(both.json().details.template_id).toBe('Send either a text, a template with its values, or a workflow step, not several.');
    expect((await chat.send(ben, { conversation_id: benChat, template_id: templateId, values: { Kind: 'poem', Topic: 'tea [words:20]' }, enhance: true })).statusCode).toBe(400);
    // Another user's conversation stays a 404.
    expect((await chat.send(ben, { conversation_id: conversationId, template_id: templateId, values: { Kind: 'poem', Topic: 'tea [words:20]' } })).statusCode).toBe(404);
    clean(await call(ben, 'GET', `/messages/conversation/${benChat}`));
    expect((await call(ben, 'GET', `/messages/conversation/${benChat}`)).json().messages).toEqual([]);
  });

  it('workflows: /run, the run and workflow JSON and POST /messages { user_workflow_id } give another user no hidden prompt', async () => {
    const created = await call(admin, 'POST', '/workflows', { name: 'Secret flow', description: 'One step', template_ids: [templateId] });
    expect(created.statusCode, created.body).toBe(201);
    const workflowId = created.json().workflow_id as number;
    const ben = await chat.userWithWords(10_000);
    const started = clean(await call(ben, 'POST', '/user_workflows', { workflow_id: workflowId, name: 'Mine' }));
    expect(started.statusCode, started.body).toBe(201);
    const run = started.json();
    const step = run.user_workflow_templates[0].conversation_id as number;
    clean(await call(ben, 'PUT', '/user_workflows', { user_workflow_id: run.user_workflow_id, values: encodeWorkflowValues({ Kind: 'poem', Topic: 'tea [words:20]' }) }));
    clean(await call(ben, 'GET', `/workflows/${workflowId}`));
    clean(await call(ben, 'GET', '/workflows'));
    const prompted = clean(await call(ben, 'POST', `/user_workflows/${run.user_workflow_id}/run`, { conversation_id: step }));
    expect(prompted.json()).toEqual({ conversation_id: step, prompt: null });

    const socket = await chat.connect(ben);
    const frames: string[] = [];
    socket.onAny((event: string, payload: unknown) => frames.push(`${event} ${JSON.stringify(payload)}`));
    const sent = clean(await chat.send(ben, { conversation_id: step, user_workflow_id: run.user_workflow_id }));
    expect(sent.statusCode, sent.body).toBe(201);
    const ended = endOf(socket, sent.json().assistant_message.message_id);
    expect(sent.json().user_message.content).toBe('Hidden recipe\nKind: poem\nTopic: tea [words:20]');
    expect((await chat.messageRow(sent.json().user_message.message_id)).modelContent).toBe(`${SECRET}: write a poem about tea [words:20]`);
    await ended;
    for (const frame of frames) expect(frame).not.toContain(SECRET);
    clean(await call(ben, 'GET', `/user_workflows/${run.user_workflow_id}`));
    clean(await call(ben, 'GET', '/user_workflows'));
    clean(await call(ben, 'GET', `/messages/conversation/${step}`));

    // Another user's run is a 404 here too (with their own conversation); a conversation that is not a step is a 400.
    const other = await chat.userWithWords(10_000);
    const otherChat = await chat.newConversation(other);
    expect((await chat.send(other, { conversation_id: otherChat, user_workflow_id: run.user_workflow_id })).statusCode).toBe(404);
    const benChat = await chat.newConversation(ben);
    expect((await chat.send(ben, { conversation_id: benChat, user_workflow_id: run.user_workflow_id })).statusCode).toBe(400);
  });

  it('campaigns: a member granted a campaign lists, reads and sends its organization template without its hidden prompt', async () => {
    const member = await chat.userWithWords(10_000);
    const organization = await buildOrganization(t.ctx, [
      { user: owner, role: 'admin' },
      { user: member, role: 'member' },
    ]);
    const org = `organization_id=${organization.organizationId}`;
    const [inOrg] = await t.ctx.db
      .insert(templates)
      .values({ name: 'Team recipe', description: 'd', content: CONTENT, userId: owner.user.userId, organizationId: organization.organizationId })
      .returning();
    const [campaign] = await t.ctx.db.insert(campaigns).values({ organizationId: organization.organizationId, userId: owner.user.userId, name: 'Launch' }).returning();
    await t.ctx.db.insert(campaignResources).values({ campaignId: campaign.campaignId, resourceId: inOrg.templateId, type: 'template' });
    await t.ctx.db.insert(campaignUsers).values({ campaignId: campaign.campaignId, userId: member.user.userId });

    const listed = clean(await call(member, 'GET', `/campaigns/${campaign.campaignId}/resources?resources=template&${org}`));
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().resources.map((r: { name: string }) => r.name)).toEqual(['Team recipe']);
    expect(clean(await call(member, 'GET', `/templates/${inOrg.templateId}?${org}`)).json().content).toBeNull();
    const conversationId = (await call(member, 'POST', `/conversations?${org}`, { name: 'Team chat', organization_id: organization.organizationId })).json().conversation_id as number;
    const sent = clean(await call(member, 'POST', `/messages?${org}`, { conversation_id: conversationId, template_id: inOrg.templateId, values: { Kind: 'story', Topic: 'sea [words:20]' }, stream: false }));
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().user_message.content).toBe('Team recipe\nKind: story\nTopic: sea [words:20]');
  });
});
