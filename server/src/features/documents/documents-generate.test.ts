// Generation into a document through the real app, the OpenAI emulator and a real database (issue 15 item 1;
// spec part 2 §2 "Documents and editor", §7 POST /documents/avatar-output; contract A): each kind streams
// `document_output` frames and is saved; the document's text comes first with the spec's instruction; a
// template's hidden prompt stays on the server; words are charged once (also for a partial failure) and
// concurrent requests cannot hold more than the balance; 412 without access or words; 404 for another user's
// document, avatar, template or generation and for an ungranted campaign; validation texts in EN and ES.
import { startOpenAiEmulator, type RunningEmulator } from '@pluma/emulators/index';
import type { DocumentGeneration, DocumentOutputPayload } from '@pluma/common/documents-generate';
import { SocketEvents } from '@pluma/common/events';
import { countWords } from '@pluma/common/rules/token-estimate';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { avatars, creditLedger, documentGenerations, templates, users } from '../../db/schema';
import { connectSocket, listenLocally, type ClientSocket } from '../../platform/realtime/socket-test-helpers';
import { multipartBody, pngBytes } from '../files/test-fixtures';
import { docxWithSections } from '../knowledge/test-fixtures';
import { buildOrganization, buildUser, grantAccess, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, testDbKind } from '../../test/test-db';

type Method = 'GET' | 'POST';
const INSTRUCTION = 'Use the above text to make a response for the next request';

describe(`document generation API (${testDbKind()})`, () => {
  let emulator: RunningEmulator;
  let t: TestApp;
  let url: string;
  let ana: BuiltUser;
  let ben: BuiltUser;
  let noAccess: BuiltUser;
  let anaDoc: number;
  let benDoc: number;
  const sockets: ClientSocket[] = [];
  const frames = new Map<number, DocumentOutputPayload[]>();
  const waiters = new Map<number, (frames: DocumentOutputPayload[]) => void>();

  const call = (who: BuiltUser, method: Method, path: string, payload?: object) =>
    t.app.inject({ method, url: path, headers: who.auth, ...(payload ? { payload } : {}) });
  const generate = (who: BuiltUser, body: object, query = '') => call(who, 'POST', `/api/documents/avatar-output${query}`, body);
  /** Every frame of the user's generations, kept by generation id. */
  const listen = async (who: BuiltUser) => {
    const socket = await connectSocket(url, { token: who.token });
    sockets.push(socket);
    socket.on(SocketEvents.documentOutput, (frame: DocumentOutputPayload) => {
      const list = frames.get(frame.generation_id) ?? [];
      list.push(frame);
      frames.set(frame.generation_id, list);
      if (frame.done) waiters.get(frame.generation_id)?.(list);
    });
  };
  const ended = (generationId: number, timeoutMs = 20_000) =>
    new Promise<DocumentOutputPayload[]>((resolve, reject) => {
      const list = frames.get(generationId);
      if (list?.some((f) => f.done)) return resolve(list);
      waiters.set(generationId, resolve);
      setTimeout(() => reject(new Error(`generation ${generationId} did not end`)), timeoutMs);
    });
  /** Starts a generation (202) and waits for its last frame. */
  const run = async (who: BuiltUser, body: object, query = '') => {
    const res = await generate(who, body, query);
    expect(res.statusCode, res.body).toBe(202);
    const generation = res.json().generation as DocumentGeneration;
    const list = await ended(generation.generation_id);
    return { started: generation, frames: list, last: list.at(-1)!, body: res.body };
  };
  const wordsOf = async (who: BuiltUser) => {
    const [row] = await t.ctx.db.select({ available: users.availableWords, held: users.heldWords }).from(users).where(eq(users.userId, who.user.userId));
    return row;
  };
  const chargesOf = (who: BuiltUser) =>
    t.ctx.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, who.user.userId), eq(creditLedger.sourceType, 'document')));
  const newDocument = async (who: BuiltUser, name: string, organizationId?: number) => {
    const query = organizationId ? `?organization_id=${organizationId}` : '';
    const res = await call(who, 'POST', `/api/documents${query}`, { name, organization_id: organizationId ?? null, content: `<p>${name}</p>` });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().document_id as number;
  };

  beforeAll(async () => {
    emulator = await startOpenAiEmulator({ port: 0, host: '127.0.0.1' });
    t = await createTestApp({ OPENAI_API_KEY: 'sk-operator-key-000000000000', OPENAI_BASE_URL: emulator.url });
    url = await listenLocally(t.app);
    ana = await buildUser(t.ctx, { access: true });
    ben = await buildUser(t.ctx, { access: true, lang: 'es' });
    noAccess = await buildUser(t.ctx);
    anaDoc = await newDocument(ana, 'Ana notes');
    benDoc = await newDocument(ben, 'Ben notes');
    await listen(ana);
    await listen(ben);
  }, 60_000);
  afterAll(async () => {
    for (const s of sockets) s.close();
    await t?.close();
    await emulator?.close();
  });

  it('refuses an empty instruction, a missing avatar, template or Super Fetch input with EN/ES texts, and saves nothing', async () => {
    const empty = await generate(ana, { kind: 'prompt', document_id: anaDoc, prompt: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Please type in an instruction.');
    const emptyEs = await generate(ben, { kind: 'prompt', document_id: benDoc, prompt: '' });
    expect(emptyEs.json().message).toBe('Escribe una instrucción.');
    const noAvatar = await generate(ana, { kind: 'avatar', document_id: anaDoc, prompt: 'Hello' });
    expect(noAvatar.statusCode).toBe(400);
    expect(noAvatar.json().details.avatar_id).toBe('Please select an avatar');
    const noMessage = await generate(ben, { kind: 'avatar', document_id: benDoc, avatar_id: 1 });
    expect(noMessage.json().details.prompt).toBe('Escribe un mensaje para tu avatar.');
    expect((await generate(ana, { kind: 'template', document_id: anaDoc })).json().details.template_id).toBe('Please select a template');
    const sf = await generate(ana, { kind: 'super_fetch', document_id: anaDoc, inputs: { task: 'Post', topic: ' ' } });
    expect(sf.json().details['inputs.topic']).toBe("The input can't be empty");
    expect(sf.json().details['inputs.format']).toBe("The input can't be empty");
    const hostile = await generate(ana, { kind: 'prompt', document_id: 0, prompt: 'x\u0000' });
    expect(hostile.statusCode).toBe(400);
    expect(await t.ctx.db.select().from(documentGenerations).where(eq(documentGenerations.userId, ana.user.userId))).toHaveLength(0);
    expect(await wordsOf(ana)).toMatchObject({ held: 0 });
  });

  it('404 feature_disabled with documents off, and for a tool whose own switch is off; Super Fetch not in an organization', async () => {
    const admin = await buildUser(t.ctx, { staffRole: 'admin' });
    const save = async (changes: Record<string, boolean>) => {
      const saved = await t.app.inject({ method: 'PUT', url: '/api/appconfig', headers: admin.auth, payload: Object.entries(changes).map(([key, on]) => ({ key, value: String(on) })) });
      expect(saved.statusCode, saved.body).toBe(200);
    };
    const sfBody = { kind: 'super_fetch', inputs: { task: 'a', topic: 'b', target: 'c', person: 'd', tone: 'e', format: 'f' } };
    try {
      await save({ documents_enabled: false });
      const off = await generate(ana, { kind: 'prompt', prompt: 'Hi' });
      expect(off.statusCode).toBe(404);
      expect(off.json().error).toBe('feature_disabled');
      expect((await call(ana, 'GET', `/api/documents/${anaDoc}/generations`)).statusCode).toBe(404);
      // The documents themselves too (list, read, Word export).
      for (const url of ['/api/documents', `/api/documents/${anaDoc}`, `/api/documents/doc-converted/${anaDoc}`]) {
        const refused = await call(ana, 'GET', url);
        expect(refused.statusCode, url).toBe(404);
        expect(refused.json().error, url).toBe('feature_disabled');
      }
      await save({ documents_enabled: true, super_fetch: false, templates_enabled: false, avatars_enabled: false });
      expect((await generate(ana, sfBody)).json().error).toBe('feature_disabled');
      expect((await generate(ana, { kind: 'template', template_id: 1, values: {} })).json().error).toBe('feature_disabled');
      expect((await generate(ana, { kind: 'prompt', avatar_id: 1, prompt: 'Hi' })).json().error).toBe('feature_disabled');
    } finally {
      await save({ documents_enabled: true, super_fetch: true, templates_enabled: true, avatars_enabled: true });
    }
    const { organizationId } = await buildOrganization(t.ctx, [{ user: ana, role: 'admin' }]);
    const inOrg = await generate(ana, sfBody, `?organization_id=${organizationId}`);
    expect(inOrg.statusCode).toBe(404);
    expect(inOrg.json().message).toBe('Super Fetch is only available in your personal space, not in an organization.');
    expect(await t.ctx.db.select().from(documentGenerations).where(eq(documentGenerations.userId, ana.user.userId))).toHaveLength(0);
  });

  it('412 without access', async () => {
    const res = await generate(noAccess, { kind: 'prompt', prompt: 'Write a poem' });
    expect(res.statusCode).toBe(412);
  });

  it('prompt: the document text first with the spec instruction, streamed, saved, charged once, listed until applied', async () => {
    const before = await wordsOf(ana);
    const { started, frames: list, last } = await run(ana, {
      kind: 'prompt',
      document_id: anaDoc,
      prompt: '[echo] Summarise it',
      document_text: 'Our trail shoes weigh 180 grams.',
    });
    expect(started).toMatchObject({ document_id: anaDoc, kind: 'prompt', status: 'streaming', content: '', applied: false });
    expect(list.length).toBeGreaterThan(1);
    expect(last).toMatchObject({ generation_id: started.generation_id, document_id: anaDoc, done: true, status: 'done', error_code: null, delta: '' });
    // The frames' deltas add up to the whole content.
    expect(list.map((f) => f.delta).join('')).toBe(last.content);
    const content = last.content!;
    // The emulator echoes the transcript with whitespace folded.
    expect(content).toContain(`user: Our trail shoes weigh 180 grams. ${INSTRUCTION} Summarise it`);
    expect(content.indexOf(INSTRUCTION)).toBeLessThan(content.indexOf('Summarise it'));
    expect(content).toContain('Answer in Markdown');

    const saved = await call(ana, 'GET', `/api/documents/generations/${started.generation_id}`);
    expect(saved.json()).toMatchObject({ status: 'done', content, applied: false });
    const charges = await chargesOf(ana);
    expect(charges).toHaveLength(1);
    expect(charges[0].words).toBe(-countWords(content));
    expect(await wordsOf(ana)).toEqual({ available: before.available - countWords(content), held: 0 });

    const unapplied = await call(ana, 'GET', `/api/documents/${anaDoc}/generations?unapplied=true`);
    expect(unapplied.json().generations.map((g: DocumentGeneration) => g.generation_id)).toEqual([started.generation_id]);
    const applied = await call(ana, 'POST', `/api/documents/generations/${started.generation_id}/applied`);
    expect(applied.statusCode).toBe(200);
    expect(applied.json().applied).toBe(true);
    expect((await call(ana, 'GET', `/api/documents/${anaDoc}/generations?unapplied=true`)).json().generations).toEqual([]);
    expect((await call(ana, 'GET', `/api/documents/${anaDoc}/generations`)).json().generations).toHaveLength(1);
  });

  it("avatar: the avatar's context is the system prompt; another user's private avatar is 404", async () => {
    const [mine] = await t.ctx.db.insert(avatars).values({ userId: ana.user.userId, name: 'Captain Ink', context: 'You speak like a pirate editor.' }).returning();
    const [theirs] = await t.ctx.db.insert(avatars).values({ userId: ben.user.userId, name: 'Private', context: 'secret persona' }).returning();
    const { last } = await run(ana, { kind: 'avatar', document_id: anaDoc, avatar_id: mine.avatarId, prompt: '[echo] Write an intro' });
    expect(last.status).toBe('done');
    expect(last.content).toContain('You speak like a pirate editor.');
    expect(last.content).toContain('Write an intro');
    expect((await generate(ana, { kind: 'avatar', document_id: anaDoc, avatar_id: theirs.avatarId, prompt: 'Hi' })).statusCode).toBe(404);
    expect((await generate(ana, { kind: 'prompt', avatar_id: theirs.avatarId, prompt: 'Hi' })).statusCode).toBe(404);
  });

  it('POST /avatars/user-message/document-request: a message to an avatar about an uploaded document (its text as context); refusals', async () => {
    const [mine] = await t.ctx.db.insert(avatars).values({ userId: ana.user.userId, name: 'Reviewer', context: 'You review travel plans.' }).returning();
    const [theirs] = await t.ctx.db.insert(avatars).values({ userId: ben.user.userId, name: 'Hidden', context: 'secret persona' }).returning();
    const docx = await docxWithSections([{ heading: 'Day one', paragraphs: ['We take the 7:40 train to Lisbon.'] }]);
    const send = (who: BuiltUser, file: { name: string; bytes: Buffer } | null, data: object | string) => {
      const { payload, headers } = multipartBody(file, { data: typeof data === 'string' ? data : JSON.stringify(data) });
      return t.app.inject({ method: 'POST', url: '/api/avatars/user-message/document-request', payload, headers: { ...headers, ...who.auth } });
    };
    const generationsOf = async (who: BuiltUser) => (await t.ctx.db.select().from(documentGenerations).where(eq(documentGenerations.userId, who.user.userId))).length;
    const before = await generationsOf(ana);

    const res = await send(ana, { name: 'plan.docx', bytes: docx }, { avatar_id: mine.avatarId, prompt: '[echo] Is the plan realistic?' });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().generation).toMatchObject({ kind: 'avatar', status: 'streaming', document_id: null });
    const [last] = (await ended(res.json().generation.generation_id)).slice(-1);
    expect(last.status).toBe('done');
    expect(last.content).toContain('You review travel plans.');
    expect(last.content).toContain('We take the 7:40 train to Lisbon.');
    expect(last.content).toContain(`${INSTRUCTION} Is the plan realistic?`);
    expect(await generationsOf(ana)).toBe(before + 1);

    // Another user's private avatar is a 404; bad input a 400 with its message; nothing is saved.
    expect((await send(ana, { name: 'plan.docx', bytes: docx }, { avatar_id: theirs.avatarId, prompt: 'Hi' })).statusCode).toBe(404);
    const noFile = await send(ana, null, { avatar_id: mine.avatarId, prompt: 'Hi' });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().message).toBe('Please choose a file.');
    const noMessage = await send(ben, { name: 'plan.docx', bytes: docx }, { avatar_id: theirs.avatarId, prompt: '  ' });
    expect(noMessage.statusCode).toBe(400);
    expect(noMessage.json().message).toBe('Escribe un mensaje para tu avatar.');
    const noAvatar = await send(ana, { name: 'plan.docx', bytes: docx }, { prompt: 'Hi' });
    expect(noAvatar.statusCode).toBe(400);
    expect(noAvatar.json().message).toBe('Please select an avatar');
    expect((await send(ana, { name: 'plan.docx', bytes: docx }, '{not json')).statusCode).toBe(400);
    const picture = await send(ana, { name: 'map.png', bytes: pngBytes() }, { avatar_id: mine.avatarId, prompt: 'Hi' });
    expect(picture.statusCode).toBe(400);
    expect(picture.json().message).toBe('Only .docx, .pdf, .pptx and .txt files can be used.');
    expect((await send(ana, { name: 'plan.docx', bytes: docx }, { avatar_id: mine.avatarId, prompt: 'Hi', document_id: benDoc })).statusCode).toBe(404);
    expect((await send(noAccess, { name: 'plan.docx', bytes: docx }, { avatar_id: mine.avatarId, prompt: 'Hi' })).statusCode).toBe(412);
    expect(await generationsOf(ana)).toBe(before + 1);
  });

  it('template: filled on the server, a hidden prompt never returned; field values checked; a private template of another user is 404', async () => {
    const [hidden] = await t.ctx.db
      .insert(templates)
      .values({ userId: ben.user.userId, name: 'Secret', content: 'SECRET-RECIPE about [Topic]', public: true, showPrompt: false })
      .returning();
    const [privateOne] = await t.ctx.db.insert(templates).values({ userId: ben.user.userId, name: 'Mine', content: 'Write [Topic]' }).returning();
    const missing = await generate(ana, { kind: 'template', document_id: anaDoc, template_id: hidden.templateId, values: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details['values.Topic']).toBeTruthy();
    const { started, last, body } = await run(ana, { kind: 'template', document_id: anaDoc, template_id: hidden.templateId, values: { Topic: 'shoes' } });
    expect(last.status).toBe('done');
    // The filled prompt is not part of any answer (the model's own text is its answer, not the prompt).
    expect(body).not.toContain('SECRET-RECIPE');
    const fetched = (await call(ana, 'GET', `/api/documents/generations/${started.generation_id}`)).json();
    expect(Object.keys(fetched).sort()).toEqual(['applied', 'content', 'created_at', 'document_id', 'error_code', 'generation_id', 'kind', 'status', 'updated_at']);
    const [row] = await t.ctx.db.select().from(documentGenerations).where(eq(documentGenerations.generationId, started.generation_id));
    expect(row.templateId).toBe(hidden.templateId);
    expect((await generate(ana, { kind: 'template', document_id: anaDoc, template_id: privateOne.templateId, values: { Topic: 'x' } })).statusCode).toBe(404);
  });

  it('super_fetch: the admin prompt filled with the inputs, an uploaded file as context (multipart); other file types refused', async () => {
    const data = {
      kind: 'super_fetch',
      document_id: anaDoc,
      inputs: { task: '[echo] Write a post', topic: 'Trail shoes', target: 'Runners', person: 'Coach', tone: 'Warm', format: 'AIDA' },
    };
    const { payload, headers } = multipartBody({ name: 'brief.txt', bytes: Buffer.from('Our shoes drain water in seconds.') }, { data: JSON.stringify(data) });
    const res = await t.app.inject({ method: 'POST', url: '/api/documents/avatar-output', payload, headers: { ...headers, ...ana.auth } });
    expect(res.statusCode, res.body).toBe(202);
    const [last] = (await ended(res.json().generation.generation_id)).slice(-1);
    expect(last.status).toBe('done');
    expect(last.content).toContain('Topic: Trail shoes');
    expect(last.content).toContain(`user: Our shoes drain water in seconds. ${INSTRUCTION} Task: Write a post`);

    const png = multipartBody({ name: 'shoe.png', bytes: pngBytes() }, { data: JSON.stringify(data) });
    const refused = await t.app.inject({ method: 'POST', url: '/api/documents/avatar-output', payload: png.payload, headers: { ...png.headers, ...ana.auth } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('Only .docx, .pdf, .pptx and .txt files can be used.');
    const invalid = multipartBody(null, { data: JSON.stringify({ ...data, inputs: {} }) });
    const bad = await t.app.inject({ method: 'POST', url: '/api/documents/avatar-output', payload: invalid.payload, headers: { ...invalid.headers, ...ben.auth } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details['inputs.task']).toBe('El campo no puede estar vacío');
  });

  it('keeps the partial text of a generation whose provider failed mid-stream (status failed) and charges it once', async () => {
    const dan = await buildUser(t.ctx, { access: true });
    await listen(dan);
    const before = await wordsOf(dan);
    const { started, last } = await run(dan, { kind: 'prompt', prompt: '[stream-error:5] Write a post' });
    expect(last).toMatchObject({ done: true, status: 'failed' });
    expect(last.error_code).toBeTruthy();
    expect(countWords(last.content!)).toBe(5);
    const saved = (await call(dan, 'GET', `/api/documents/generations/${started.generation_id}`)).json();
    expect(saved).toMatchObject({ status: 'failed', content: last.content, document_id: null });
    expect(await chargesOf(dan)).toHaveLength(1);
    expect(await wordsOf(dan)).toEqual({ available: before.available - 5, held: 0 });
  });

  it("the user's Stop ends a running generation as 'stopped': its text kept, only its words charged, the end reaches every tab; idempotent; 404 to others", async () => {
    const eva = await buildUser(t.ctx, { access: true });
    await listen(eva);
    await listen(eva); // a second tab
    const before = await wordsOf(eva);
    const res = await generate(eva, { kind: 'prompt', prompt: '[words:400] [rate:30] long and slow' });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().generation.generation_id as number;
    // Another user's Stop is a 404 and stops nothing.
    expect((await call(ben, 'POST', `/api/documents/generations/${id}/stop`)).statusCode).toBe(404);
    expect((await call(eva, 'POST', `/api/documents/generations/2000000000/stop`)).statusCode).toBe(404);
    // Once part of it is written, Stop.
    for (let i = 0; i < 200 && !(frames.get(id) ?? []).some((f) => f.delta); i++) await new Promise((r) => setTimeout(r, 50));
    const stopped = await call(eva, 'POST', `/api/documents/generations/${id}/stop`);
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json()).toMatchObject({ generation_id: id, status: 'stopped', error_code: null });
    const words = countWords(stopped.json().content);
    expect(words).toBeGreaterThan(0);
    expect(words).toBeLessThan(400);
    const list = await ended(id);
    for (let i = 0; i < 100 && list.filter((f) => f.done).length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    const ends = list.filter((f) => f.done);
    // Every tab of the user got the end frame (two sockets here).
    expect(ends).toHaveLength(2);
    for (const end of ends) expect(end).toMatchObject({ status: 'stopped', error_code: null, content: stopped.json().content });
    expect((await chargesOf(eva)).map((c) => c.words)).toEqual([-words]);
    expect(await wordsOf(eva)).toEqual({ available: before.available - words, held: 0 });
    // Idempotent: a second Stop answers the same ended generation and charges nothing more.
    const again = await call(eva, 'POST', `/api/documents/generations/${id}/stop`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ status: 'stopped', content: stopped.json().content });
    expect(await chargesOf(eva)).toHaveLength(1);
    expect((await call(ben, 'POST', `/api/documents/generations/${id}/stop`)).statusCode).toBe(404);
  });

  it('stops at the hold; concurrent requests cannot hold more than the balance; none left is 412 words_exhausted', async () => {
    const cara = await buildUser(t.ctx);
    await grantAccess(t.ctx, cara.user.userId, 50);
    await listen(cara);
    const answers = await Promise.all([1, 2, 3, 4].map(() => generate(cara, { kind: 'prompt', prompt: '[words:80] Write a post' })));
    const started = answers.filter((r) => r.statusCode === 202);
    expect(started).toHaveLength(1);
    for (const refused of answers.filter((r) => r.statusCode !== 202)) {
      expect(refused.statusCode).toBe(412);
      expect(refused.json().error).toBe('premium_required');
    }
    const [last] = (await ended(started[0].json().generation.generation_id)).slice(-1);
    expect(countWords(last.content!)).toBe(50);
    expect(await wordsOf(cara)).toEqual({ available: 0, held: 0 });
    const none = await generate(cara, { kind: 'prompt', prompt: 'More' });
    expect(none.statusCode).toBe(412);
    expect(await chargesOf(cara)).toHaveLength(1);
  });

  it("404 for another user's document and generation; the generation list is only the actor's own", async () => {
    expect((await generate(ana, { kind: 'prompt', document_id: benDoc, prompt: 'Hi' })).statusCode).toBe(404);
    expect((await generate(ana, { kind: 'prompt', document_id: 2_000_000_000, prompt: 'Hi' })).statusCode).toBe(404);
    const [mine] = await t.ctx.db.select().from(documentGenerations).where(eq(documentGenerations.userId, ana.user.userId)).limit(1);
    expect((await call(ben, 'GET', `/api/documents/generations/${mine.generationId}`)).statusCode).toBe(404);
    expect((await call(ben, 'POST', `/api/documents/generations/${mine.generationId}/applied`)).statusCode).toBe(404);
    expect((await call(ben, 'GET', `/api/documents/${anaDoc}/generations`)).json().generations).toEqual([]);
    expect((await call(ana, 'GET', `/api/documents/generations/2000000000`)).statusCode).toBe(404);
  });

  it('a campaign document: a granted Member generates into it through the campaign; an ungranted one and an unlinked document are 404', async () => {
    const admin = await buildUser(t.ctx, { access: true });
    const member = await buildUser(t.ctx, { access: true });
    const stranger = await buildUser(t.ctx, { access: true });
    await listen(member);
    const { organizationId } = await buildOrganization(t.ctx, [
      { user: admin, role: 'admin' },
      { user: member, role: 'member' },
      { user: stranger, role: 'member' },
    ]);
    const q = `?organization_id=${organizationId}`;
    const campaign = (await call(admin, 'POST', `/api/campaigns${q}`, { organization_id: organizationId, name: 'Launch' })).json();
    const linked = await newDocument(admin, 'Brief', organizationId);
    const unlinked = await newDocument(admin, 'Other', organizationId);
    expect((await call(admin, 'POST', `/api/campaigns/campaign-resource/${q}`, { campaign_id: campaign.campaign_id, resource_id: linked, type: 'document' })).statusCode).toBeLessThan(300);
    expect((await call(admin, 'POST', `/api/campaigns/give-access/${campaign.campaign_id}${q}`, { user_id: member.user.userId })).statusCode).toBeLessThan(300);

    const body = { kind: 'prompt', document_id: linked, campaign_id: campaign.campaign_id, prompt: 'Draft the intro' };
    const { last, started } = await run(member, body, q);
    expect(last.status).toBe('done');
    expect(started.document_id).toBe(linked);
    expect((await call(member, 'GET', `/api/documents/${linked}/generations?unapplied=true${q.replace('?', '&')}`)).json().generations).toHaveLength(1);
    expect((await generate(stranger, body, q)).statusCode).toBe(404);
    expect((await generate(member, { ...body, document_id: unlinked }, q)).statusCode).toBe(404);
    // Without the campaign, the document is not the Member's own.
    expect((await generate(member, { ...body, campaign_id: undefined }, q)).statusCode).toBe(404);
    expect((await generate(member, body)).statusCode).toBe(404);
  });
});

describe(`document generation and shutdown (${testDbKind()})`, () => {
  it('closing the app stops a running generation: saved as failed interrupted with its text, charged once', async () => {
    const emulator = await startOpenAiEmulator({ port: 0, host: '127.0.0.1' });
    const database = await createTestDatabase();
    const t = await createTestApp({ OPENAI_API_KEY: 'sk-operator-key-000000000000', OPENAI_BASE_URL: emulator.url }, { database });
    try {
      const owner = await buildUser(t.ctx, { access: true });
      const res = await t.app.inject({ method: 'POST', url: '/api/documents/avatar-output', headers: owner.auth, payload: { kind: 'prompt', prompt: '[words:400] [rate:30] long and slow' } });
      expect(res.statusCode).toBe(202);
      const id = res.json().generation.generation_id as number;
      const where = eq(documentGenerations.generationId, id);
      // Wait until part of it is saved (the row is saved as it streams), then shut down.
      for (let i = 0; i < 200; i++) {
        const [row] = await database.db.select().from(documentGenerations).where(where);
        if (row.content) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await t.close();
      const [row] = await database.db.select().from(documentGenerations).where(where);
      expect(row).toMatchObject({ status: 'failed', errorCode: 'interrupted' });
      const words = countWords(row.content);
      expect(words).toBeGreaterThan(0);
      expect(words).toBeLessThan(400);
      const charges = await database.db.select().from(creditLedger).where(and(eq(creditLedger.userId, owner.user.userId), eq(creditLedger.sourceType, 'document')));
      expect(charges.map((c) => c.words)).toEqual([-words]);
    } finally {
      await database.close();
      await emulator.close();
    }
  });
});
