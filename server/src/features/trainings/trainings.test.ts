// Trainings through the real app, the OpenAI emulator's files and fine-tuning API and a real database
// (issue 13 item 4): the training file built from the avatar's context, text files and liked outputs and
// checked before upload; a run to success (live `training` events, the model selectable for the avatar)
// and to failure; a restart mid-run that finishes on the new app; sync, refine, delete; 404 for another
// user's training on every route, 412 without access, 409 without the user's own key.
import { startOpenAiEmulator, type RunningEmulator } from '@pluma/emulators/index';
import { TRAINING_EVENT, type TrainingEventPayload } from '@pluma/common/trainings';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { outputs, trainings } from '../../db/schema';
import { connectSocket, listenLocally } from '../../platform/realtime/socket-test-helpers';
import { buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, testDbKind } from '../../test/test-db';
import { multipartBody } from '../files/test-fixtures';
import { trainingTiming } from './job';
import { passagesOf, trainingFileProblem } from './training-file';

const KEY = 'sk-proj-training-tests-0123456789';
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

describe(`trainings API (${testDbKind()})`, () => {
  let emulator: RunningEmulator;
  let database: Database;
  let t: TestApp;
  let ana: BuiltUser;
  let ben: BuiltUser;
  let noKey: BuiltUser;
  let noAccess: BuiltUser;

  const call = (who: BuiltUser | null, method: Method, url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who?.auth ?? {}, ...(payload ? { payload } : {}) });
  const startApp = () => createTestApp({ OPENAI_BASE_URL: emulator.url }, { database });

  /** An avatar of `who` whose context carries the emulator's directives, with `liked` liked outputs. */
  async function avatarWith(who: BuiltUser, context: string, liked: number) {
    const res = await call(who, 'POST', '/api/avatars', { name: 'Coach', context });
    expect(res.statusCode).toBe(201);
    const avatarId = res.json().avatar_id as number;
    if (liked > 0) {
      await t.ctx.db.insert(outputs).values(
        Array.from({ length: liked }, (_, i) => ({ userId: who.user.userId, avatarId, prompt: `Write tip ${i}`, content: `Tip ${i}: drink water and move.`, liked: true })),
      );
    }
    return avatarId;
  }
  const createTraining = async (who: BuiltUser, avatarId: number) => {
    const res = await call(who, 'POST', '/api/trainings', { avatar_id: avatarId, name: 'First run' });
    expect(res.statusCode).toBe(201);
    return res.json().training_id as number;
  };
  async function waitForStatus(who: BuiltUser, trainingId: number, statuses: string[], timeoutMs = 20_000) {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const res = await call(who, 'GET', `/api/trainings/${trainingId}`);
      const body = res.json();
      if (statuses.includes(body.status) || Date.now() > end) return body;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  beforeAll(async () => {
    trainingTiming.pollMs = 100;
    emulator = await startOpenAiEmulator({ port: 0, host: '127.0.0.1' });
    database = await createTestDatabase();
    t = await startApp();
    ana = await buildUser(t.ctx, { name: 'Ana', access: true });
    ben = await buildUser(t.ctx, { name: 'Ben', access: true, lang: 'es' });
    noKey = await buildUser(t.ctx, { access: true });
    noAccess = await buildUser(t.ctx);
    for (const who of [ana, ben, noAccess]) expect((await call(who, 'PUT', '/api/users/ai-key', { api_key: KEY })).statusCode).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await database?.close();
    await emulator?.close();
  });

  it('builds the file from context, text files and liked outputs; refuses too few examples before any upload', async () => {
    const avatarId = await avatarWith(ana, 'You are a friendly coach. [fine-tune:ms=400]', 3);
    const trainingId = await createTraining(ana, avatarId);
    const draft = (await call(ana, 'GET', `/api/trainings/${trainingId}`)).json();
    expect(draft).toMatchObject({ status: 'draft', progress: 0, file: null, file_id: null, fine_tuned_model: null, selected: false, base_model: 'gpt-4o-mini-2024-07-18' });
    expect(draft.abilities).toMatchObject({ execute: true, sync: false, refine: false, select: false, delete: true });

    // The keys' check before saving (beforeAll) already called the model list; nothing is uploaded here.
    const requestsBefore = emulator.stats.requests;
    const few = await call(ana, 'POST', '/api/trainings/execute', { training_id: trainingId });
    expect(few.statusCode).toBe(400);
    expect(few.json().message).toContain('at least 10 examples');
    expect(few.json().message).toContain('gives 3');
    expect(emulator.stats.requests).toBe(requestsBefore);

    // A text file of the avatar adds its passages.
    const paragraphs = Array.from({ length: 8 }, (_, i) => `Paragraph ${i}. ${'Stretch before running and keep a steady pace every morning. '.repeat(25)}`).join('\n\n');
    const { payload, headers } = multipartBody({ name: 'notes.txt', bytes: Buffer.from(paragraphs) });
    const uploaded = await t.app.inject({ method: 'POST', url: `/api/avatars/add-file/${avatarId}`, payload, headers: { ...headers, ...ana.auth } });
    expect(uploaded.statusCode).toBe(201);
    const fileId = uploaded.json().file_id as number;
    for (let i = 0; i < 100; i++) {
      if ((await call(ana, 'GET', `/api/files/${fileId}/index-status`)).json().status === 'ready') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const run = await call(ana, 'POST', '/api/trainings/execute', { training_id: trainingId });
    expect(run.statusCode).toBe(200);
    expect(run.json()).toMatchObject({ status: 'queued', polling: true, file: expect.stringMatching(/^training-\d+-\d+\.jsonl$/) });
    expect(run.json().examples).toBeGreaterThanOrEqual(10);
    // Two clicks start one run.
    expect((await call(ana, 'POST', '/api/trainings/execute', { training_id: trainingId })).statusCode).toBe(409);
    const done = await waitForStatus(ana, trainingId, ['succeeded', 'failed']);
    expect(done).toMatchObject({ status: 'succeeded', progress: 100, polling: false, error: null });
    expect(done.file_id).toMatch(/^file-/);
    expect(done.fine_tuned_model).toMatch(/^ft:gpt-4o-mini-2024-07-18:pluma-emulator:first-run-/);
  });

  it('runs to success with live progress over the socket, and the model becomes selectable for the avatar', async () => {
    const url = await listenLocally(t.app);
    const socket = await connectSocket(url, { token: ana.token });
    const events: TrainingEventPayload[] = [];
    socket.on(TRAINING_EVENT, (payload: TrainingEventPayload) => events.push(payload));
    // 4 s of provider work polled every 100 ms: two or more progress updates even when a loaded machine
    // stretches the polls past a second (1.5 s gave a single one in a full CI run).
    const avatarId = await avatarWith(ana, 'Coach voice. [fine-tune:ms=4000]', 12);
    const trainingId = await createTraining(ana, avatarId);
    expect((await call(ana, 'PUT', '/api/trainings', { training_id: trainingId, selected: true })).statusCode).toBe(409);
    expect((await call(ana, 'POST', '/api/trainings/execute', { training_id: trainingId })).statusCode).toBe(200);
    const done = await waitForStatus(ana, trainingId, ['succeeded', 'failed']);
    expect(done.status).toBe('succeeded');
    await new Promise((r) => setTimeout(r, 100));
    socket.close();
    const mine = events.filter((e) => e.training_id === trainingId);
    const statuses = [...new Set(mine.map((e) => e.status))];
    expect(statuses).toEqual(expect.arrayContaining(['queued', 'validating_files', 'running', 'succeeded']));
    const running = mine.filter((e) => e.status === 'running').map((e) => e.progress);
    expect(running.length).toBeGreaterThan(1);
    expect(running).toEqual([...running].sort((a, b) => a - b));
    expect(mine.at(-1)).toMatchObject({ status: 'succeeded', progress: 100, training: { fine_tuned_model: done.fine_tuned_model } });

    expect(done.abilities).toMatchObject({ select: true, refine: true, sync: true, execute: false });
    const selected = await call(ana, 'PUT', '/api/trainings', { training_id: trainingId, selected: true, name: 'Coach v1' });
    expect(selected.json()).toMatchObject({ selected: true, name: 'Coach v1' });
    const { selectedTrainingModel } = await import('./index');
    expect(await selectedTrainingModel({ actor: { user: ana.user, staffRole: null, sessionId: 0, familyId: '', organization: null }, db: t.ctx.db, avatarId })).toEqual({ trainingId, model: done.fine_tuned_model });

    // Refine: a further run on top of the fine-tuned model; the model stays selectable meanwhile.
    const refined = await call(ana, 'POST', '/api/trainings/refine', { training_id: trainingId });
    expect(refined.json()).toMatchObject({ status: 'queued', base_model: done.fine_tuned_model, fine_tuned_model: done.fine_tuned_model });
    const again = await waitForStatus(ana, trainingId, ['succeeded', 'failed']);
    expect(again.status).toBe('succeeded');
    expect(again.fine_tuned_model).not.toBe(done.fine_tuned_model);
    const synced = await call(ana, 'POST', '/api/trainings/sync', { training_id: trainingId });
    expect(synced.json()).toMatchObject({ status: 'succeeded', polling: false, fine_tuned_model: again.fine_tuned_model });
  });

  it('ends in failure with the provider reason when the provider fails the job', async () => {
    const avatarId = await avatarWith(ana, 'Coach voice. [fine-tune:fail] [fine-tune:ms=600]', 10);
    const trainingId = await createTraining(ana, avatarId);
    await call(ana, 'POST', '/api/trainings/execute', { training_id: trainingId });
    const failed = await waitForStatus(ana, trainingId, ['succeeded', 'failed']);
    expect(failed).toMatchObject({ status: 'failed', polling: false, fine_tuned_model: null, error: { code: 'fine_tune_failed' } });
    expect(failed.abilities).toMatchObject({ execute: true, select: false });
  });

  it('survives a restart mid-run: the new app resumes polling and the training finishes', async () => {
    const avatarId = await avatarWith(ana, 'Coach voice. [fine-tune:ms=3000]', 10);
    const trainingId = await createTraining(ana, avatarId);
    await call(ana, 'POST', '/api/trainings/execute', { training_id: trainingId });
    const midway = await waitForStatus(ana, trainingId, ['running']);
    expect(midway.status).toBe('running');
    await t.close();
    const [left] = await database.db.select().from(trainings).where(eq(trainings.trainingId, trainingId));
    expect(left).toMatchObject({ status: 'running', polling: true });
    t = await startApp();
    const done = await waitForStatus(ana, trainingId, ['succeeded', 'failed']);
    expect(done).toMatchObject({ status: 'succeeded', progress: 100, polling: false });
    expect(done.fine_tuned_model).toMatch(/^ft:/);
  });

  it("is a 404 for another user's training on every route; 412 without access; 409 without a key", async () => {
    const avatarId = await avatarWith(ana, 'Private coach.', 0);
    const trainingId = await createTraining(ana, avatarId);
    const routes: [Method, string, object?][] = [
      ['GET', `/api/trainings/${trainingId}`],
      ['PUT', '/api/trainings', { training_id: trainingId, name: 'Mine now' }],
      ['POST', '/api/trainings/execute', { training_id: trainingId }],
      ['POST', '/api/trainings/sync', { training_id: trainingId }],
      ['POST', '/api/trainings/refine', { training_id: trainingId }],
      ['DELETE', `/api/trainings/${trainingId}`],
    ];
    for (const [method, url, body] of routes) expect((await call(ben, method, url, body)).statusCode, `${method} ${url}`).toBe(404);
    expect((await call(ben, 'GET', `/api/trainings?avatar_id=${avatarId}`)).json()).toEqual({ trainings: [], total: 0 });
    // Another user's avatar cannot be trained: unseen → 404.
    expect((await call(ben, 'POST', '/api/trainings', { avatar_id: avatarId, name: 'x' })).statusCode).toBe(404);
    // In an organization context the Personal training is not there either.
    expect((await call(ana, 'GET', `/api/trainings/${trainingId}`)).statusCode).toBe(200);

    expect((await call(noAccess, 'GET', '/api/trainings')).statusCode).toBe(412);
    expect((await call(noAccess, 'POST', '/api/trainings', { avatar_id: avatarId, name: 'x' })).statusCode).toBe(412);
    const missingKey = await call(noKey, 'POST', '/api/trainings', { avatar_id: avatarId, name: 'x' });
    expect(missingKey.statusCode).toBe(409);
    expect(missingKey.json().error).toBe('ai_key_required');
    expect((await call(noKey, 'POST', '/api/trainings/execute', { training_id: trainingId })).statusCode).toBe(409);
    expect((await call(null, 'GET', '/api/trainings')).statusCode).toBe(401);

    expect((await call(ana, 'DELETE', `/api/trainings/${trainingId}`)).statusCode).toBe(200);
    expect((await call(ana, 'GET', `/api/trainings/${trainingId}`)).statusCode).toBe(404);
  });

  it('delete cancels a running provider job', async () => {
    const avatarId = await avatarWith(ana, 'Coach voice. [fine-tune:ms=60000]', 10);
    const trainingId = await createTraining(ana, avatarId);
    await call(ana, 'POST', '/api/trainings/execute', { training_id: trainingId });
    const running = await waitForStatus(ana, trainingId, ['validating_files', 'queued', 'running']);
    let jobId: string | null = null;
    for (let i = 0; i < 50 && !jobId; i++) {
      jobId = (await database.db.select().from(trainings).where(eq(trainings.trainingId, trainingId)))[0]?.providerJobId ?? null;
      if (!jobId) await new Promise((r) => setTimeout(r, 100));
    }
    expect(running.status).toBeTruthy();
    expect((await call(ana, 'DELETE', `/api/trainings/${trainingId}`)).statusCode).toBe(200);
    const { default: OpenAI } = await import('openai');
    const client = new OpenAI({ apiKey: KEY, baseURL: emulator.url, maxRetries: 0 });
    expect((await client.fineTuning.jobs.retrieve(jobId!)).status).toBe('cancelled');
  });

  it('checks a training file and cuts passages at paragraphs', () => {
    const line = JSON.stringify({ messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: 'a' }] });
    expect(trainingFileProblem(Array(10).fill(line).join('\n'))).toBeNull();
    expect(trainingFileProblem(Array(9).fill(line).join('\n'))).toEqual({ problem: 'too_few_examples', count: 9 });
    expect(trainingFileProblem(`${line}\n{"messages":[{"role":"user","content":"q"}]}`)?.problem).toBe('invalid_line');
    const passages = passagesOf(`${'A sentence here. '.repeat(200)}\n\nshort\n\n${'Another one. '.repeat(30)}`);
    expect(passages.length).toBeGreaterThan(2);
    expect(passages.every((p) => p.length <= 1400)).toBe(true);
  });
});
