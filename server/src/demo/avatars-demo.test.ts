// The offline demo covers avatars as it covers chat (issue 30 item 3): with DEMO_AI on, no operator key and
// no OPENAI_BASE_URL (createTestApp's defaults, as a fresh install), a newcomer's own key is checked by the demo
// model and every call made on it goes to the demo model's emulator: refine rewrites the context, sync
// re-indexes, combine makes the new avatar, and a training runs to its fine-tuned model with progress, then
// syncs and refines — nothing reaches the network.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputs } from '../db/schema';
import { userKeysGoToDemo } from '../platform/ai/user-key-client';
import { buildUser, type BuiltUser } from '../test/factories';
import { createTestApp, type TestApp } from '../test/test-app';
import { testDbKind } from '../test/test-db';
import { multipartBody } from '../features/files/test-fixtures';
import { trainingTiming } from '../features/trainings/job';

type Method = 'GET' | 'POST' | 'PUT';

describe(`avatars and trainings on the offline demo (${testDbKind()})`, () => {
  let t: TestApp;
  let ana: BuiltUser;
  const call = (method: Method, url: string, payload?: object) => t.app.inject({ method, url, headers: ana.auth, ...(payload ? { payload } : {}) });
  /** Reads `url` until `done` says so (the jobs run in the background), with every value seen. */
  async function until<T>(url: string, done: (value: T) => boolean, timeoutMs = 30_000): Promise<{ last: T; seen: T[] }> {
    const end = Date.now() + timeoutMs;
    const seen: T[] = [];
    for (;;) {
      const value = (await call('GET', url)).json() as T;
      seen.push(value);
      if (done(value) || Date.now() > end) return { last: value, seen };
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const create = async (name: string, context: string) => {
    const res = await call('POST', '/api/avatars', { name, context });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().avatar_id as number;
  };
  type AvatarBody = { context: string; refine: { status: string }; avatar_files: { index: { status: string } }[] };
  const indexed = (avatarId: number) => until<AvatarBody>(`/api/avatars/${avatarId}`, (a) => a.avatar_files.every((f) => f.index.status === 'ready' || f.index.status === 'failed'));

  beforeAll(async () => {
    trainingTiming.pollMs = 100;
    t = await createTestApp();
    ana = await buildUser(t.ctx, { name: 'Ana', access: true });
    expect(await userKeysGoToDemo(t.ctx)).toBe(true);
    const saved = await call('PUT', '/api/users/ai-key', { api_key: 'sk-proj-demo-avatars-0123456789' });
    expect(saved.statusCode, saved.body).toBe(200);
  }, 60_000);
  afterAll(async () => t?.close());

  it('refines, syncs and combines avatars on the demo model', async () => {
    const coach = await create('Coach', 'You are a friendly running coach who answers briefly.');
    const { payload, headers } = multipartBody({ name: 'notes.txt', bytes: Buffer.from('Stretch before running and keep a steady pace every morning.') });
    expect((await t.app.inject({ method: 'POST', url: `/api/avatars/add-file/${coach}`, payload, headers: { ...headers, ...ana.auth } })).statusCode).toBe(201);
    expect((await indexed(coach)).last.avatar_files[0].index.status).toBe('ready');
    await t.ctx.db.insert(outputs).values({ userId: ana.user.userId, avatarId: coach, prompt: 'A tip', content: 'Drink water before a long run.', liked: true });

    const refine = await call('POST', '/api/avatars/refine', { avatar_id: coach });
    expect(refine.statusCode, refine.body).toBe(202);
    const refined = await until<AvatarBody>(`/api/avatars/${coach}`, (a) => a.refine.status === 'done' || a.refine.status === 'failed');
    expect(refined.last.refine).toMatchObject({ status: 'done', error_code: null });
    expect(refined.last.context).not.toBe('You are a friendly running coach who answers briefly.');
    expect(refined.last.context.length).toBeGreaterThan(100);

    const sync = await call('POST', '/api/avatars/sync', { avatar_id: coach });
    expect(sync.statusCode).toBe(202);
    expect((await until<AvatarBody>(`/api/avatars/${coach}`, (a) => a.avatar_files[0].index.status === 'ready')).last.avatar_files[0].index.status).toBe('ready');

    const chef = await create('Chef', 'You cook simple dinners.');
    const combined = await call('POST', '/api/avatars/combine', { selected_avatar_id: chef, target_avatar_id: coach, name: 'Coach and chef' });
    expect(combined.statusCode, combined.body).toBe(201);
    expect(combined.json().context).toContain('You cook simple dinners.');
    expect(combined.json().avatar_files).toHaveLength(1);
  });

  it('runs a training to its fine-tuned model with progress, then syncs and refines it', async () => {
    const avatarId = await create('Runner', 'You are a friendly coach. [fine-tune:ms=1500]');
    const paragraphs = Array.from({ length: 8 }, (_, i) => `Paragraph ${i}. ${'Stretch before running and keep a steady pace every morning. '.repeat(25)}`).join('\n\n');
    const { payload, headers } = multipartBody({ name: 'plan.txt', bytes: Buffer.from(paragraphs) });
    expect((await t.app.inject({ method: 'POST', url: `/api/avatars/add-file/${avatarId}`, payload, headers: { ...headers, ...ana.auth } })).statusCode).toBe(201);
    await indexed(avatarId);
    const created = await call('POST', '/api/trainings', { avatar_id: avatarId, name: 'Demo run' });
    expect(created.statusCode, created.body).toBe(201);
    const trainingId = created.json().training_id as number;

    const run = await call('POST', '/api/trainings/execute', { training_id: trainingId });
    expect(run.statusCode, run.body).toBe(200);
    type TrainingBody = { status: string; progress: number; fine_tuned_model: string | null; abilities: Record<string, boolean> };
    const finished = (row: TrainingBody) => row.status === 'succeeded' || row.status === 'failed';
    const done = await until<TrainingBody>(`/api/trainings/${trainingId}`, finished);
    expect(done.last).toMatchObject({ status: 'succeeded', progress: 100, error: null });
    // The demo model's emulator made the model, on the user's key.
    expect(done.last.fine_tuned_model).toMatch(/^ft:gpt-4o-mini-2024-07-18:pluma-emulator:/);
    // Progress was reported on the way (the job reads the provider's steps).
    expect(done.seen.some((row) => row.status === 'running')).toBe(true);
    expect(done.last.abilities).toMatchObject({ sync: true, refine: true, select: true });

    const synced = await call('POST', '/api/trainings/sync', { training_id: trainingId });
    expect(synced.statusCode, synced.body).toBe(200);
    expect(synced.json()).toMatchObject({ status: 'succeeded', fine_tuned_model: done.last.fine_tuned_model });

    const refine = await call('POST', '/api/trainings/refine', { training_id: trainingId });
    expect(refine.statusCode, refine.body).toBe(200);
    expect(refine.json()).toMatchObject({ status: 'queued', base_model: done.last.fine_tuned_model });
    const again = await until<TrainingBody>(`/api/trainings/${trainingId}`, finished);
    expect(again.last.status).toBe('succeeded');
    expect(again.last.fine_tuned_model).toMatch(/^ft:/);
    expect(again.last.fine_tuned_model).not.toBe(done.last.fine_tuned_model);
  });
});
