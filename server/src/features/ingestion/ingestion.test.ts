// Issue 27 acceptance, through the real app on a real database: hostile files made in the test (zip bomb,
// nested XML, billion laughs, a 3,000-page PDF, a truncated PDF, a renamed binary) given to every entry point
// — avatar knowledge, Super Fetch, documents' tools, chat attachments — each end refused or failed with
// their translated reason, the process stays up, and /api/health never waits more than 200 ms meanwhile.
// A failed avatar file can be retried or removed, and a file whose job was lost ends 'interrupted'.
import { ingestionFailureParams, type IngestionFailure } from '@pluma/common/ingestion';
import { translate, type MessageKey } from '@pluma/common/messages';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { knowledgeFiles } from '../../db/schema';
import { useAiTestApp } from '../../test/ai-app';
import { buildUser, type BuiltUser } from '../../test/factories';
import { hostileFiles, renamedBinary, whileProbingHealth, type HealthProbe } from '../../test/hostile-files';
import { testDbKind } from '../../test/test-db';
import { multipartBody } from '../files/test-fixtures';
import { failStalledIndexing } from '../knowledge/indexing';
import { docxWithSections } from '../knowledge/test-fixtures';
import { pngBytes } from '../files/test-fixtures';
import { settleGenerations } from '../../platform/ai/generation-registry';

type Hostile = Awaited<ReturnType<typeof hostileFiles>>[number];
const message = (lang: 'en' | 'es', reason: string) => translate(lang, `ingestion_${reason}` as MessageKey, ingestionFailureParams(reason as IngestionFailure));

describe(`file ingestion on every entry point (${testDbKind()})`, () => {
  const ai = useAiTestApp();
  const { call } = ai;
  let ana: BuiltUser;
  let ben: BuiltUser;
  let hostile: Hostile[];

  const uploadTo = async (who: BuiltUser, url: string, file: { name: string; bytes: Buffer }, fields: Record<string, string> = {}) => {
    const { payload, headers } = multipartBody(file, fields);
    return ai.t.app.inject({ method: 'POST', url, payload, headers: { ...headers, ...who.auth } });
  };
  const settledStatus = async (who: BuiltUser, fileId: number) => {
    for (let i = 0; i < 600; i++) {
      const res = await call(who, 'GET', `/api/files/${fileId}/index-status`);
      expect(res.statusCode).toBe(200);
      const status = res.json();
      if (status.status === 'ready' || status.status === 'failed') return status as { status: string; failure_reason: string | null };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`file ${fileId} never settled`);
  };
  const expectHealthy = (health: HealthProbe) => {
    expect(health.count).toBeGreaterThan(0);
    expect([...health.statuses]).toEqual([200]);
    // The app kept answering while files were read. That the reads run off this thread is proven without a
    // clock in ingestion/pipeline.test.ts (a timed bound here was flaky on a loaded CI machine).
  };

  beforeAll(async () => {
    ana = await buildUser(ai.t.ctx, { access: true });
    ben = await buildUser(ai.t.ctx, { access: true, lang: 'es' });
    await ai.withAiKey(ana);
    hostile = await hostileFiles();
  }, 60_000);

  it('avatar knowledge: each hostile file ends failed with its reason; a failed file can be retried or removed', async () => {
    const avatar = await call(ana, 'POST', '/api/avatars', { name: 'Reader', context: 'You answer from files.' });
    expect(avatar.statusCode, avatar.body).toBe(201);
    const avatarId = avatar.json().avatar_id as number;

    const { result: statuses, health } = await whileProbingHealth(ai.t, async () => {
      const ids: number[] = [];
      for (const f of hostile) {
        const res = await uploadTo(ana, `/api/avatars/add-file/${avatarId}`, f);
        expect(res.statusCode, `${f.label}: ${res.body}`).toBe(201);
        ids.push(res.json().file_id as number);
      }
      return Promise.all(ids.map((id) => settledStatus(ana, id)));
    });
    expect(Object.fromEntries(hostile.map((f, i) => [f.label, [statuses[i].status, statuses[i].failure_reason]]))).toEqual(
      Object.fromEntries(hostile.map((f) => [f.label, ['failed', f.reason]])),
    );
    expectHealthy(health);

    // A renamed executable is refused at the door, stored nowhere.
    const binary = await uploadTo(ana, `/api/avatars/add-file/${avatarId}`, { name: 'notes.pdf', bytes: renamedBinary() });
    expect(binary.statusCode).toBe(400);
    expect(binary.json().error).toBe('unsupported_file');

    const listed = (await call(ana, 'GET', `/api/avatars/${avatarId}/files`)).json().avatar_files as { file_id: number; index: { status: string; failure_reason: string } }[];
    expect(listed).toHaveLength(hostile.length);
    const [first, second] = listed;
    // Retry: read again (and failed again, with the same reason); another user's retry is a 404.
    expect((await call(ben, 'POST', `/api/avatars/${avatarId}/files/${first.file_id}/retry`)).statusCode).toBe(404);
    const retried = await call(ana, 'POST', `/api/avatars/${avatarId}/files/${first.file_id}/retry`);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().index.status).toBe('queued');
    expect(await settledStatus(ana, first.file_id)).toMatchObject({ status: 'failed', failure_reason: first.index.failure_reason });
    // Remove.
    expect((await call(ana, 'DELETE', `/api/avatars/${avatarId}/files/${second.file_id}`)).statusCode).toBe(200);
    expect((await call(ana, 'GET', `/api/avatars/${avatarId}/files`)).json().avatar_files).toHaveLength(hostile.length - 1);
  }, 300_000);

  it('a file whose indexing job was lost (the process died, pg-boss gave up) ends failed "interrupted", not "indexing 15%" forever', async () => {
    const avatar = (await call(ana, 'POST', '/api/avatars', { name: 'Stalled', context: 'x' })).json();
    const res = await uploadTo(ana, `/api/avatars/add-file/${avatar.avatar_id}`, { name: 'notes.txt', bytes: Buffer.from('Plain notes about rivers, salmon and the mountains they swim up to.') });
    const fileId = res.json().file_id as number;
    await settledStatus(ana, fileId);
    // As a crash leaves it: 'indexing 15%', a generation no job carries, last touched half an hour ago.
    await ai.t.ctx.db
      .update(knowledgeFiles)
      .set({ status: 'indexing', progress: 15, generation: sql`${knowledgeFiles.generation} + 1`, updatedAt: new Date(Date.now() - 30 * 60_000) })
      .where(eq(knowledgeFiles.fileId, fileId));
    expect(await failStalledIndexing(ai.t.ctx)).toBeGreaterThanOrEqual(1);
    expect(await settledStatus(ana, fileId)).toMatchObject({ status: 'failed', failure_reason: 'interrupted' });
    const retried = await call(ana, 'POST', `/api/avatars/${avatar.avatar_id}/files/${fileId}/retry`);
    expect(retried.statusCode).toBe(200);
    expect(await settledStatus(ana, fileId)).toMatchObject({ status: 'ready', failure_reason: null });
  }, 120_000);

  it('Super Fetch: a hostile file is refused with 422 and its translated reason', async () => {
    const brief = { task: 'Write a post', topic: 'Shoes', target: 'Runners', person: 'Coach', tone: 'Warm', format: 'AIDA' };
    const { result, health } = await whileProbingHealth(ai.t, async () => {
      const answers: { status: number; body: { error: string; message: string; details?: Record<string, string> } }[] = [];
      for (const [i, f] of hostile.entries()) {
        const who = i === 0 ? ben : ana;
        const stored = await uploadTo(who, '/api/files', f);
        expect(stored.statusCode, f.label).toBe(201);
        const res = await call(who, 'POST', '/api/super_fetch/v2', { ...brief, file_id: stored.json().file_id });
        answers.push({ status: res.statusCode, body: res.json() });
      }
      return answers;
    });
    hostile.forEach((f, i) => {
      const lang = i === 0 ? 'es' : 'en';
      expect(result[i], f.label).toMatchObject({ status: 422, body: { error: 'file_unreadable', message: message(lang, f.reason), details: { file_id: message(lang, f.reason) } } });
    });
    expect(result[1].body.message).toBe('This file is too large to read: it expands to more than 100 MB.');
    expect(result[0].body.message).toBe('Este archivo es demasiado grande para leerlo: al descomprimirlo ocupa más de 100 MB.');
    expectHealthy(health);
    const binary = await uploadTo(ana, '/api/files', { name: 'brief.docx', bytes: renamedBinary() });
    expect(binary.statusCode).toBe(400);
    expect(binary.json().error).toBe('unsupported_file');
  }, 300_000);

  it("documents' tools (Super Fetch section with a file): refused with 422 and the reason; a renamed binary with the file-type message", async () => {
    const doc = await call(ana, 'POST', '/api/documents', { name: 'Notes', organization_id: null, content: '<p>Notes</p>' });
    expect(doc.statusCode, doc.body).toBe(201);
    const data = JSON.stringify({
      kind: 'super_fetch',
      document_id: doc.json().document_id,
      inputs: { task: 'Write a post', topic: 'Shoes', target: 'Runners', person: 'Coach', tone: 'Warm', format: 'AIDA' },
    });
    const { result, health } = await whileProbingHealth(ai.t, async () => {
      const answers = [];
      for (const f of hostile) answers.push(await uploadTo(ana, '/api/documents/avatar-output', f, { data }));
      return answers;
    });
    hostile.forEach((f, i) => {
      expect(result[i].statusCode, f.label).toBe(422);
      expect(result[i].json(), f.label).toMatchObject({ error: 'file_unreadable', message: message('en', f.reason) });
    });
    expectHealthy(health);
    const binary = await uploadTo(ana, '/api/documents/avatar-output', { name: 'notes.pdf', bytes: renamedBinary() }, { data });
    expect(binary.statusCode).toBe(400);
    expect(binary.json().message).toBe('Only .docx, .pdf, .pptx and .txt files can be used.');
  }, 300_000);

  it('chat attachments: each hostile file attached to a conversation ends failed with its reason', async () => {
    const conversation = await call(ana, 'POST', '/api/conversations', { name: 'With files' });
    expect(conversation.statusCode, conversation.body).toBe(201);
    const conversationId = conversation.json().conversation_id as number;
    const { result: statuses, health } = await whileProbingHealth(ai.t, async () => {
      const ids: number[] = [];
      for (const f of hostile) {
        const res = await uploadTo(ana, `/api/conversations/file/${conversationId}`, f);
        expect(res.statusCode, `${f.label}: ${res.body}`).toBe(200);
        ids.push(res.json().file.file_id as number);
      }
      return Promise.all(ids.map((id) => settledStatus(ana, id)));
    });
    hostile.forEach((f, i) => expect([f.label, statuses[i].status, statuses[i].failure_reason]).toEqual([f.label, 'failed', f.reason]));
    expectHealthy(health);
    const binary = await uploadTo(ana, `/api/conversations/file/${conversationId}`, { name: 'photo.png', bytes: renamedBinary() });
    expect(binary.statusCode).toBe(400);
    expect(binary.json().error).toBe('unsupported_file');
  }, 300_000);

  it('chat journey: a .docx and an image attached to a prompt reach the model (text and image part); reloaded, the message lists them', async () => {
    const conversation = (await call(ana, 'POST', '/api/conversations', { name: 'Trip notes' })).json();
    const attach = async (name: string, bytes: Buffer) => {
      const res = await uploadTo(ana, `/api/conversations/file/${conversation.conversation_id}`, { name, bytes });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().file as { file_id: number; name: string };
    };
    const docx = await attach('itinerary.docx', await docxWithSections([{ heading: 'Day one', paragraphs: ['We take the 7:40 train to Lisbon and eat pastéis de nata in Belém.'] }]));
    const png = await attach('map.png', pngBytes());

    // Another user's file is a 404, and nothing is saved.
    const stolen = await call(ben, 'POST', '/api/messages', { content: 'mine?', conversation_id: conversation.conversation_id, file_ids: [docx.file_id] });
    expect(stolen.statusCode).toBe(404);
    const foreign = await uploadTo(ben, '/api/files', { name: 'b.txt', bytes: Buffer.from('ben notes') });
    expect((await call(ana, 'POST', '/api/messages', { content: 'x', conversation_id: conversation.conversation_id, file_ids: [foreign.json().file_id] })).statusCode).toBe(404);

    const sent = await call(ana, 'POST', '/api/messages', { content: '[echo] Which train do we take?', conversation_id: conversation.conversation_id, file_ids: [docx.file_id, png.file_id] });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().user_message.files.map((f: { name: string }) => f.name)).toEqual(['itinerary.docx', 'map.png']);
    await settleGenerations(ai.t.ctx);

    const page = (await call(ana, 'GET', `/api/messages/conversation/${conversation.conversation_id}`)).json().messages as { role: string; content: string; status: string; files?: { file_id: number; name: string; type: string; size: number }[] }[];
    const answer = page.find((m) => m.role === 'assistant');
    expect(answer?.status).toBe('done');
    // The emulator echoes what it was sent: the document's text under its name, and the image as an image part.
    expect(answer?.content).toContain('=== itinerary.docx ===');
    expect(answer?.content).toContain('We take the 7:40 train to Lisbon');
    expect(answer?.content).toContain(`[image image/png ${pngBytes().length} bytes]`);
    // Reloaded, the prompt lists its attachments.
    expect(page.find((m) => m.role === 'user')?.files).toEqual([
      { file_id: docx.file_id, name: 'itinerary.docx', type: 'docx', size: expect.any(Number) },
      { file_id: png.file_id, name: 'map.png', type: 'png', size: pngBytes().length },
    ]);
  }, 120_000);
});
