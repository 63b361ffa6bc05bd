// Workflows and user workflows (spec part 2 §2 "Workflows", §3, §5 "Workflow field values", §7; issue 14
// item 3) through the real app: admin-only writes of workflows from public templates, the values string's
// round trip, every refusal (another user's run is a 404, no access is a 412), and two steps run through the
// chat against the OpenAI wire-protocol emulator where step 2 is given step 1's answer.
import { encodeWorkflowValues } from '@pluma/common/rules/workflow-values';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { conversations, templates, userWorkflows } from '../../db/schema';
import { buildOrganization, buildUser, type BuiltUser } from '../../test/factories';
import { endOf, useChatApp } from '../../test/chat-app';
import { seedTemplates } from '../templates';
import { SEED_WORKFLOWS, seedWorkflows } from './seed';
import type { TestApp } from '../../test/test-app';

describe('workflows', () => {
  const chat = useChatApp();
  let t: TestApp;
  let admin: BuiltUser;
  beforeAll(async () => {
    t = chat.t;
    admin = await buildUser(t.ctx, { access: true, staffRole: 'admin' });
  });

  const call = (who: BuiltUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api${url}`, headers: who.auth, ...(payload === undefined ? {} : { payload: payload as object }) });

  let templateCount = 0;
  const template = async (content: string, extra: Partial<typeof templates.$inferInsert> = {}) => {
    const [row] = await t.ctx.db
      .insert(templates)
      .values({ name: `Step ${++templateCount}`, description: 'A step', content, public: true, userId: admin.user.userId, ...extra })
      .returning();
    return row.templateId;
  };

  const newWorkflow = async (templateIds: number[], name = 'Blog pipeline') => {
    const res = await call(admin, 'POST', '/workflows', { name, description: 'Draft then polish', tags: 'blog, seo', template_ids: templateIds });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };

  const start = async (who: BuiltUser, workflowId: number, name = 'My run', query = '') => {
    const res = await call(who, 'POST', `/user_workflows${query}`, { workflow_id: workflowId, name });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };

  it('admins build a workflow from public templates; its fields are the union of the templates fields', async () => {
    const a = await template('Write about [Topic] in [#Words] words, tone [Tone: formal/casual/]');
    const b = await template('Turn it into a tweet about [topic] for [Audience]');
    const wf = await newWorkflow([a, b]);
    expect(wf).toMatchObject({ name: 'Blog pipeline', tags: ['blog', 'seo'], abilities: { edit: true, delete: true, start: true } });
    expect(wf.templates.map((s: { template_id: number; position: number }) => [s.template_id, s.position])).toEqual([
      [a, 0],
      [b, 1],
    ]);
    expect(wf.fields.map((f: { name: string; type: string }) => `${f.name}:${f.type}`)).toEqual(['Topic:text', 'Words:number', 'Tone:select', 'Audience:text']);
    // Templates' prompts never leave the server through a workflow.
    expect(JSON.stringify(wf)).not.toContain('Write about');

    const user = await buildUser(t.ctx, { access: true });
    const seen = await call(user, 'GET', `/workflows/${wf.workflow_id}`);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().abilities).toEqual({ edit: false, delete: false, start: true });
    const list = await call(user, 'GET', '/workflows?query=pipeline');
    expect(list.json().workflows.map((w: { workflow_id: number }) => w.workflow_id)).toContain(wf.workflow_id);

    const reordered = await call(admin, 'PUT', '/workflows', { workflow_id: wf.workflow_id, name: 'Renamed', template_ids: [b, a] });
    expect(reordered.statusCode).toBe(200);
    expect(reordered.json().templates.map((s: { template_id: number }) => s.template_id)).toEqual([b, a]);
    expect(reordered.json().name).toBe('Renamed');
  });

  it('refuses workflow writes to non-admins (403), private templates and conflicting selects (400), unknown ids (404)', async () => {
    const pub = await template('Public [X]');
    const priv = await template('Private [Y]', { public: false });
    const user = await buildUser(t.ctx, { access: true });
    const manager = await buildUser(t.ctx, { access: true, staffRole: 'manager' });
    for (const who of [user, manager]) {
      expect((await call(who, 'POST', '/workflows', { name: 'No', template_ids: [pub] })).statusCode).toBe(403);
    }
    const wf = await newWorkflow([pub], 'Kept');
    expect((await call(user, 'PUT', '/workflows', { workflow_id: wf.workflow_id, name: 'Hijack' })).statusCode).toBe(403);
    expect((await call(user, 'DELETE', `/workflows/${wf.workflow_id}`)).statusCode).toBe(403);
    expect((await call(admin, 'GET', '/workflows/99999999')).statusCode).toBe(404);

    const withPrivate = await call(admin, 'POST', '/workflows', { name: 'Bad', template_ids: [pub, priv] });
    expect(withPrivate.statusCode).toBe(400);
    expect(withPrivate.json().message).toBe('Only public templates can be steps of a workflow, so every user can run them.');
    const c1 = await template('[Tone: a/b/]');
    const c2 = await template('[Tone: c/d/]');
    const conflicting = await call(admin, 'POST', '/workflows', { name: 'Bad', template_ids: [c1, c2] });
    expect(conflicting.statusCode).toBe(400);
    expect((await call(admin, 'POST', '/workflows', { name: ' ', template_ids: [pub] })).json().message).toBe("The input can't be empty");
    expect((await call(admin, 'POST', '/workflows', { name: 'Empty', template_ids: [] })).json().message).toBe('Choose at least one template.');
    // Nothing changed.
    expect((await call(admin, 'GET', `/workflows/${wf.workflow_id}`)).json().name).toBe('Kept');

    expect((await call(admin, 'DELETE', `/workflows/${wf.workflow_id}`)).statusCode).toBe(200);
    expect((await call(admin, 'GET', `/workflows/${wf.workflow_id}`)).statusCode).toBe(404);
  });

  it('saves values with commas, equals signs, backslashes and line breaks and gives them back unchanged', async () => {
    // show_prompt on: its prompt may reach every user (spec part 2 §2), so /run gives it.
    const wf = await newWorkflow([await template('About [Topic], [#Count] items, [Tone: formal/casual/], for [Audience]', { showPrompt: true })]);
    const user = await buildUser(t.ctx, { access: true });
    const run = await start(user, wf.workflow_id);
    expect(run).toMatchObject({ name: 'My run', values: '', complete: false, workflow_id: wf.workflow_id });
    expect(run.user_workflow_templates).toHaveLength(1);

    const tricky = { Topic: 'cats, dogs = pets', Count: '3', Tone: 'casual', Audience: 'C:\\kids\\, teens=yes\nand parents' };
    const values = encodeWorkflowValues(tricky);
    const saved = await call(user, 'PUT', '/user_workflows', { user_workflow_id: run.user_workflow_id, values });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ values, field_values: tricky, complete: true });

    const again = (await call(user, 'GET', `/user_workflows/${run.user_workflow_id}`)).json();
    expect(again.field_values).toEqual(tricky);
    expect(again.fields.map((f: { value: string }) => f.value)).toEqual(['cats, dogs = pets', '3', 'casual', 'C:\\kids\\, teens=yes\nand parents']);

    // The step's prompt is the template filled with them.
    const prompt = await call(user, 'POST', `/user_workflows/${run.user_workflow_id}/run`, { conversation_id: run.user_workflow_templates[0].conversation_id });
    expect(prompt.json().prompt).toBe('About cats, dogs = pets, 3 items, casual, for C:\\kids\\, teens=yes\nand parents');
  });

  it('refuses incomplete or invalid values with the field messages and changes nothing', async () => {
    const wf = await newWorkflow([await template('[Topic] [#Count] [Tone: formal/casual/]')]);
    const user = await buildUser(t.ctx, { access: true });
    const run = await start(user, wf.workflow_id);
    const good = encodeWorkflowValues({ Topic: 'x', Count: '1', Tone: 'formal' });
    expect((await call(user, 'PUT', '/user_workflows', { user_workflow_id: run.user_workflow_id, values: good })).statusCode).toBe(200);

    const missing = await call(user, 'PUT', '/user_workflows', { user_workflow_id: run.user_workflow_id, values: encodeWorkflowValues({ Topic: 'x' }) });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ message: 'Please complete all the required fields to save.', details: { Count: "The input can't be empty", Tone: "The input can't be empty" } });
    const bad = await call(user, 'PUT', '/user_workflows', { user_workflow_id: run.user_workflow_id, values: encodeWorkflowValues({ Topic: 'x', Count: 'many', Tone: 'angry' }) });
    expect(bad.json().details).toEqual({ Count: 'This field needs a number.', Tone: 'Select type must have at least one option' });
    const malformed = await call(user, 'PUT', '/user_workflows', { user_workflow_id: run.user_workflow_id, values: 'Topic=a=b' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe('The values are not a valid key=value list.');
    const spanish = await buildUser(t.ctx, { access: true, lang: 'es' });
    const spanishRun = await start(spanish, wf.workflow_id);
    const es = await call(spanish, 'PUT', '/user_workflows', { user_workflow_id: spanishRun.user_workflow_id, values: encodeWorkflowValues({ Topic: 'x' }) });
    expect(es.json().details.Count).toBe('El campo no puede estar vacío');

    const [row] = await t.ctx.db.select().from(userWorkflows).where(eq(userWorkflows.userWorkflowId, run.user_workflow_id));
    expect(row.values).toBe(good);
  });

  it("another user's run is a 404 on every route; the organization scope separates runs; no access is a 412", async () => {
    const wf = await newWorkflow([await template('Hello [Name]')]);
    const owner = await buildUser(t.ctx, { access: true });
    const other = await buildUser(t.ctx, { access: true });
    const run = await start(owner, wf.workflow_id);
    const id = run.user_workflow_id;
    const conversationId = run.user_workflow_templates[0].conversation_id;
    const refusals = [
      await call(other, 'GET', `/user_workflows/${id}`),
      await call(other, 'PUT', '/user_workflows', { user_workflow_id: id, values: 'Name=x' }),
      await call(other, 'DELETE', `/user_workflows/${id}`),
      await call(other, 'POST', `/user_workflows/${id}/run`, { conversation_id: conversationId }),
      // Even an admin does not read another user's run.
      await call(admin, 'GET', `/user_workflows/${id}`),
    ];
    expect(refusals.map((r) => r.statusCode)).toEqual([404, 404, 404, 404, 404]);
    expect((await call(other, 'GET', '/user_workflows')).json()).toMatchObject({ user_workflows: [], total: 0 });
    // A conversation of another run is not a step of this one.
    const otherRun = await start(other, wf.workflow_id);
    const foreign = await call(owner, 'POST', `/user_workflows/${id}/run`, { conversation_id: otherRun.user_workflow_templates[0].conversation_id });
    expect(foreign.statusCode).toBe(400);

    // Inside an organization the run belongs there, not to Personal.
    const org = await buildOrganization(t.ctx, [{ user: owner, role: 'member' }]);
    const inOrg = await start(owner, wf.workflow_id, 'Team run', `?organization_id=${org.organizationId}`);
    expect(inOrg.organization_id).toBe(org.organizationId);
    const personal = (await call(owner, 'GET', '/user_workflows')).json().user_workflows.map((u: { user_workflow_id: number }) => u.user_workflow_id);
    expect(personal).toEqual([id]);
    expect((await call(owner, 'GET', `/user_workflows/${inOrg.user_workflow_id}`)).statusCode).toBe(404);
    expect((await call(owner, 'GET', `/user_workflows/${inOrg.user_workflow_id}?organization_id=${org.organizationId}`)).statusCode).toBe(200);
    const [chatRow] = await t.ctx.db.select().from(conversations).where(eq(conversations.conversationId, inOrg.user_workflow_templates[0].conversation_id));
    expect(chatRow.organizationId).toBe(org.organizationId);

    const noAccess = await buildUser(t.ctx);
    const gated = [await call(noAccess, 'GET', '/workflows'), await call(noAccess, 'POST', '/user_workflows', { workflow_id: wf.workflow_id, name: 'x' })];
    expect(gated.map((r) => r.statusCode)).toEqual([412, 412]);

    // Delete removes the run and its conversations.
    expect((await call(owner, 'DELETE', `/user_workflows/${id}`)).statusCode).toBe(200);
    expect((await call(owner, 'GET', `/user_workflows/${id}`)).statusCode).toBe(404);
    expect(await t.ctx.db.select().from(conversations).where(eq(conversations.conversationId, conversationId))).toEqual([]);
  });

  it('a run outlives its workflow; a step whose template is no longer public does not run', async () => {
    const tpl = await template('Hello [Name]');
    const wf = await newWorkflow([tpl], 'Short-lived');
    const user = await buildUser(t.ctx, { access: true });
    const run = await start(user, wf.workflow_id);
    await call(user, 'PUT', '/user_workflows', { user_workflow_id: run.user_workflow_id, values: 'Name=Ana' });
    const conversationId = run.user_workflow_templates[0].conversation_id;

    await t.ctx.db.update(templates).set({ public: false }).where(eq(templates.templateId, tpl));
    const refused = await call(user, 'POST', `/user_workflows/${run.user_workflow_id}/run`, { conversation_id: conversationId });
    expect(refused.statusCode).toBe(409);
    expect((await call(user, 'GET', `/workflows/${wf.workflow_id}`)).json().abilities.start).toBe(false);
    expect((await call(user, 'POST', '/user_workflows', { workflow_id: wf.workflow_id, name: 'Again' })).statusCode).toBe(409);
    // An admin cannot save it with the private template either, and nothing changes.
    const put = await call(admin, 'PUT', '/workflows', { workflow_id: wf.workflow_id, name: 'Changed', template_ids: [tpl] });
    expect(put.statusCode).toBe(400);
    expect((await call(admin, 'GET', `/workflows/${wf.workflow_id}`)).json().name).toBe('Short-lived');

    expect((await call(admin, 'DELETE', `/workflows/${wf.workflow_id}`)).statusCode).toBe(200);
    const kept = await call(user, 'GET', `/user_workflows/${run.user_workflow_id}`);
    expect(kept.statusCode).toBe(200);
    expect(kept.json()).toMatchObject({ workflow_id: null, field_values: { Name: 'Ana' } });
  });

  it('runs two steps through the chat: step 2 is given step 1 answer; Regenerate uses the chat API', async () => {
    const step1 = await template('Write about [Topic]');
    const step2 = await template('Summarize it for [Audience]', { language: 'es' });
    const wf = await newWorkflow([step1, step2]);
    const user = await chat.userWithWords(10_000);
    const run = await start(user, wf.workflow_id);
    const [first, second] = run.user_workflow_templates as { conversation_id: number }[];
    await call(user, 'PUT', '/user_workflows', { user_workflow_id: run.user_workflow_id, values: encodeWorkflowValues({ Topic: 'cats, dogs [words:15]', Audience: 'kids [echo]' }) });

    // Step 2 waits for step 1's answer.
    const early = await chat.send(user, { user_workflow_id: run.user_workflow_id, conversation_id: second.conversation_id });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('Run step 1 first and wait for its answer: this step uses it.');

    // The steps' templates hide their prompts (show_prompt off, not the user's): /run gives none, and POST
    // /messages { user_workflow_id } fills the step on the server (issue 30 item 9).
    expect((await call(user, 'POST', `/user_workflows/${run.user_workflow_id}/run`, { conversation_id: first.conversation_id })).json()).toEqual({ conversation_id: first.conversation_id, prompt: null });
    const socket = await chat.connect(user);
    const sent1 = await chat.send(user, { user_workflow_id: run.user_workflow_id, conversation_id: first.conversation_id });
    expect(sent1.statusCode, sent1.body).toBe(201);
    const ended1 = endOf(socket, sent1.json().assistant_message.message_id);
    expect(sent1.body).not.toContain('Write about');
    expect(sent1.json().user_message.content).toBe(`Step ${templateCount - 1}\nTopic: cats, dogs [words:15]`);
    expect((await chat.messageRow(sent1.json().user_message.message_id)).modelContent).toBe('Write about cats, dogs [words:15]');
    const answer1Id = sent1.json().assistant_message.message_id as number;
    await ended1;
    const answer1 = (await chat.messageRow(answer1Id)).content as string;
    expect(answer1.length).toBeGreaterThan(0);

    const sent2 = await chat.send(user, { user_workflow_id: run.user_workflow_id, conversation_id: second.conversation_id });
    expect(sent2.statusCode, sent2.body).toBe(201);
    const ended2 = endOf(socket, sent2.json().assistant_message.message_id);
    // The previous answer first, then the instruction in the template's language, then the filled template.
    expect((await chat.messageRow(sent2.json().user_message.message_id)).modelContent).toBe(
      `${answer1.trim()}\n\nUsa el texto anterior para dar una respuesta a la siguiente petición\n\nSummarize it for kids [echo]`,
    );
    const answer2Id = sent2.json().assistant_message.message_id as number;
    await ended2;
    // The emulator echoes what the model was given: step 1's answer reached it.
    expect((await chat.messageRow(answer2Id)).content).toContain(answer1.trim().split('\n')[0]);

    const detail = (await call(user, 'GET', `/user_workflows/${run.user_workflow_id}`)).json();
    expect(detail.user_workflow_templates.map((s: { last_answer: { message_id: number; status: string } }) => [s.last_answer.message_id, s.last_answer.status])).toEqual([
      [answer1Id, 'done'],
      [answer2Id, 'done'],
    ]);

    // Regenerate step 1 (the chat's own API): the step's newest answer is the new one.
    const regenerated = await chat.send(user, { conversation_id: first.conversation_id, message_id: answer1Id, regenerate: true });
    expect(regenerated.statusCode, regenerated.body).toBeLessThan(300);
    const newId = regenerated.json().assistant_message.message_id as number;
    await endOf(socket, newId);
    const after = (await call(user, 'GET', `/user_workflows/${run.user_workflow_id}`)).json();
    expect(after.user_workflow_templates[0].last_answer.message_id).toBe(newId);
  });

  it('seeds two workflows once, EN and ES, from the seeded templates: anyone starts them; one an admin deletes stays deleted', async () => {
    await seedTemplates(t.ctx);
    await seedWorkflows(t.ctx);
    await seedWorkflows(t.ctx);
    const user = await buildUser(t.ctx, { access: true, lang: 'es' });
    const seeded = await Promise.all(
      SEED_WORKFLOWS.map(async (entry) => {
        const found = (await call(user, 'GET', `/workflows?query=${encodeURIComponent(entry.name)}`)).json();
        expect(found.total, entry.name).toBe(1);
        return found.workflows[0];
      }),
    );
    const [en, es] = seeded;
    expect(en.templates.map((s: { name: string }) => s.name)).toEqual(['Blog post outline', 'Blog introduction']);
    expect(es.templates.map((s: { name: string }) => s.name)).toEqual(['Esquema de artículo de blog', 'Introducción de blog']);
    expect(es.tags).toEqual(['Blog', 'SEO']);
    expect(es.abilities.start).toBe(true);
    expect(es.fields.map((f: { name: string }) => f.name)).toContain('Público objetivo');
    const run = await start(user, es.workflow_id, 'Mi artículo');
    expect(run.user_workflow_templates).toHaveLength(2);

    await call(admin, 'DELETE', `/workflows/${en.workflow_id}`);
    await seedWorkflows(t.ctx);
    expect((await call(user, 'GET', `/workflows?query=${encodeURIComponent(SEED_WORKFLOWS[0]!.name)}`)).json().total).toBe(0);
  });
});
