// Refine and sync through the real app, the OpenAI emulator and a real database (spec part 2 §2, §4, §7
// POST /avatars/refine; issue 13 item 2): the model rewrites the context from the files' text and the liked
// outputs in the job queue, the state is on the avatar and pushed live (`avatar_refine`); a provider failure
// or an empty material keeps the old context with the reason; sync re-indexes every file without duplicating
// chunks. Refusals: another user's avatar 404, a public avatar of someone else 403, no key 409, no access 412.
import { startOpenAiEmulator, type RunningEmulator } from '@pluma/emulators/index';
import { AVATAR_REFINE_EVENT, type AvatarRefineEventPayload } from '@pluma/common/avatars';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { avatars, knowledgeChunks, outputs } from '../../db/schema';
import { connectSocket, listenLocally } from '../../platform/realtime/socket-test-helpers';
import { buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { testDbKind } from '../../test/test-db';
import { multipartBody } from '../files/test-fixtures';

const KEY = 'sk-proj-refine-tests-0123456789';
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

describe(`avatar refine and sync (${testDbKind()})`, () => {
  let emulator: RunningEmulator;
  let t: TestApp;
  let ana: BuiltUser;
  let ben: BuiltUser;
  let noKey: BuiltUser;
  let noAccess: BuiltUser;
  let admin: BuiltUser;

  const call = (who: BuiltUser, method: Method, url: string, payload?: object) => t.app.inject({ method, url, headers: who.auth, ...(payload ? { payload } : {}) });
  const create = async (who: BuiltUser, context: string) => {
    const res = await call(who, 'POST', '/api/avatars', { name: 'Lighthouse keeper', context });
    expect(res.statusCode).toBe(201);
    return res.json().avatar_id as number;
  };
  const upload = async (who: BuiltUser, avatarId: number, name: string, text: string) => {
    const { payload, headers } = multipartBody({ name, bytes: Buffer.from(text) });
    const res = await t.app.inject({ method: 'POST', url: `/api/avatars/add-file/${avatarId}`, payload, headers: { ...headers, ...who.auth } });
    expect(res.statusCode).toBe(201);
    return res.json().file_id as number;
  };
  const like = (who: BuiltUser, avatarId: number, content: string) =>
    t.ctx.db.insert(outputs).values({ userId: who.user.userId, avatarId, prompt: 'Write about fog', content, liked: true });
  /** Polls the avatar until `done` says so (the job runs in the background). */
  async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (done(value) || Date.now() > end) return value;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const readAvatar = async (who: BuiltUser, avatarId: number) => (await call(who, 'GET', `/api/avatars/${avatarId}`)).json();
  const refined = (who: BuiltUser, avatarId: number) => until(() => readAvatar(who, avatarId), (a) => a.refine?.status === 'done' || a.refine?.status === 'failed');
  const indexed = (who: BuiltUser, avatarId: number) =>
    until(
      () => readAvatar(who, avatarId),
      (a) => a.avatar_files.every((f: { index: { status: string } }) => f.index.status === 'ready' || f.index.status === 'failed'),
    );

  beforeAll(async () => {
    emulator = await startOpenAiEmulator({ port: 0, host: '127.0.0.1' });
    t = await createTestApp({ OPENAI_BASE_URL: emulator.url });
    ana = await buildUser(t.ctx, { name: 'Ana', access: true });
    ben = await buildUser(t.ctx, { name: 'Ben', access: true });
    noKey = await buildUser(t.ctx, { access: true });
    noAccess = await buildUser(t.ctx);
    admin = await buildUser(t.ctx, { staffRole: 'admin' });
    for (const who of [ana, ben, noAccess, admin]) expect((await call(who, 'PUT', '/api/users/ai-key', { api_key: KEY })).statusCode).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await emulator?.close();
  });

  it("rewrites the context from the files' text and the liked outputs, in the job queue, with live events", async () => {
    // [echo]: the emulator answers with what it was sent, so the new context shows the material it read.
    const avatarId = await create(ana, 'You keep the northern lighthouse and answer briefly. [echo]');
    await upload(ana, avatarId, 'logbook.txt', 'The keeper logs the foghorn every night at eleven and checks the lamp twice before dawn.');
    await like(ana, avatarId, 'Fog rolled in from the bay; the horn sang until morning.');
    await like(ben, avatarId, 'Output liked by someone else must not count.');
    expect((await indexed(ana, avatarId)).avatar_files[0].index).toEqual({ status: 'ready', progress: 100, failure_reason: null });

    const url = await listenLocally(t.app);
    const socket = await connectSocket(url, { token: ana.token });
    const events: AvatarRefineEventPayload[] = [];
    socket.on(AVATAR_REFINE_EVENT, (payload: AvatarRefineEventPayload) => events.push(payload));
    const before = emulator.stats.requests;
    const res = await call(ana, 'POST', '/api/avatars/refine', { avatar_id: avatarId });
    expect(res.statusCode).toBe(202);
    expect(res.json().refine).toMatchObject({ status: 'queued', error_code: null });
    expect(res.json().context).toContain('northern lighthouse');

    const after = await refined(ana, avatarId);
    socket.close();
    expect(after.refine).toMatchObject({ status: 'done', error_code: null, error_message: null });
    expect(after.context).toContain('The keeper logs the foghorn every night at eleven');
    expect(after.context).toContain('Fog rolled in from the bay');
    expect(after.context).not.toContain('someone else');
    expect(after.context).toContain('You keep the northern lighthouse');
    expect(emulator.stats.requests).toBe(before + 1);
    expect(events.filter((e) => e.avatar_id === avatarId).map((e) => e.refine.status)).toEqual(expect.arrayContaining(['queued', 'running', 'done']));
  });

  it('a provider failure, or nothing to learn from, keeps the old context and says why', async () => {
    const context = 'You answer as a grumpy sailor. [error:400]';
    const avatarId = await create(ana, context);
    await like(ana, avatarId, 'Arr, the sea is cold.');
    expect((await call(ana, 'POST', '/api/avatars/refine', { avatar_id: avatarId })).statusCode).toBe(202);
    const failed = await refined(ana, avatarId);
    expect(failed.context).toBe(context);
    expect(failed.refine.status).toBe('failed');
    expect(failed.refine.error_message).toBeTruthy();
    expect(failed.refine.error_code).not.toBeNull();

    const empty = await create(ana, 'A persona without files or liked outputs.');
    const requests = emulator.stats.requests;
    expect((await call(ana, 'POST', '/api/avatars/refine', { avatar_id: empty })).statusCode).toBe(202);
    const none = await refined(ana, empty);
    expect(none).toMatchObject({ context: 'A persona without files or liked outputs.', refine: { status: 'failed', error_code: 'no_material' } });
    expect(emulator.stats.requests).toBe(requests);
  });

  it("sync re-queues every file's indexing and never duplicates chunks", async () => {
    const avatarId = await create(ana, 'Keeper.');
    const fileId = await upload(ana, avatarId, 'notes.txt', `${'The lamp turns once every ten seconds above the rocks. '.repeat(60)}`);
    await indexed(ana, avatarId);
    const countChunks = async () => (await t.ctx.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.fileId, fileId))).length;
    const chunks = await countChunks();
    expect(chunks).toBeGreaterThan(0);

    const res = await call(ana, 'POST', '/api/avatars/sync', { avatar_id: avatarId });
    expect(res.statusCode).toBe(202);
    expect(['queued', 'indexing', 'ready']).toContain(res.json().avatar_files[0].index.status);
    const after = await until(
      () => readAvatar(ana, avatarId),
      (a) => a.avatar_files[0].index.status === 'ready',
    );
    expect(after.avatar_files[0].index).toEqual({ status: 'ready', progress: 100, failure_reason: null });
    expect(await countChunks()).toBe(chunks);
    // An admin may sync someone's avatar too.
    expect((await call(admin, 'POST', '/api/avatars/sync', { avatar_id: avatarId })).statusCode).toBe(202);
  });

  it("another user's avatar is a 404, a public one of someone else a 403; 409 without a key, 412 without access", async () => {
    const context = 'Private keeper context.';
    const avatarId = await create(ana, context);
    await like(ana, avatarId, 'A liked line.');
    for (const path of ['/api/avatars/refine', '/api/avatars/sync']) {
      expect((await call(ben, 'POST', path, { avatar_id: avatarId })).statusCode).toBe(404);
      expect((await call(ben, 'POST', path, { avatar_id: 999_999 })).statusCode).toBe(404);
    }
    expect((await call(admin, 'PUT', '/api/avatars', { avatar_id: avatarId, public: true })).statusCode).toBe(200);
    const shared = await readAvatar(ben, avatarId);
    expect(shared.abilities).toMatchObject({ read: true, refine: false, sync: false });
    expect(shared.refine).toBeNull();
    for (const path of ['/api/avatars/refine', '/api/avatars/sync']) {
      const res = await call(ben, 'POST', path, { avatar_id: avatarId });
      expect(res.statusCode).toBe(403);
    }

    const [own] = await t.ctx.db.insert(avatars).values({ userId: noKey.user.userId, name: 'No key', context: 'ctx' }).returning();
    const missing = await call(noKey, 'POST', '/api/avatars/refine', { avatar_id: own.avatarId });
    expect(missing.statusCode).toBe(409);
    expect(missing.json().error).toBe('ai_key_required');
    expect((await call(noAccess, 'POST', '/api/avatars/refine', { avatar_id: avatarId })).statusCode).toBe(412);
    expect((await call(noAccess, 'POST', '/api/avatars/sync', { avatar_id: avatarId })).statusCode).toBe(412);
    expect((await call(ana, 'POST', '/api/avatars/refine', { avatar_id: 'x' })).statusCode).toBe(400);

    const [row] = await t.ctx.db.select().from(avatars).where(eq(avatars.avatarId, avatarId));
    expect(row).toMatchObject({ context, refineStatus: 'idle', refineErrorCode: null });
  });
});
