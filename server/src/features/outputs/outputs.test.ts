// Outputs through the real app, the OpenAI emulator and a real database (issue 13 item 5): generate (202,
// pending rows, then the `output` event; `document_avatar` for the editor), the selected training's
// fine-tuned model on the user's own key, list by avatar and by training, rate, edit, create, the thread
// (`thread_messages`), delete; another user's output or avatar is a 404 on every route, 412 without access.
import { SocketEvents } from '@pluma/common/events';
import type { OutputEventPayload, ThreadMessagesPayload } from '@pluma/common/outputs';
import { beforeAll, describe, expect, it } from 'vitest';
import { outputMessages, trainings } from '../../db/schema';
import type { ClientSocket } from '../../platform/realtime/socket-test-helpers';
import { buildUser, type BuiltUser } from '../../test/factories';
import { useAiTestApp, type Method } from '../../test/ai-app';
import { testDbKind } from '../../test/test-db';

const KEY = 'sk-proj-outputs-tests-0123456789';

function nextEvent<T>(socket: ClientSocket, event: string, match: (payload: T) => boolean, timeoutMs = 10_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event}`)), timeoutMs);
    const on = (payload: T) => {
      if (!match(payload)) return;
      clearTimeout(timer);
      socket.off(event, on);
      resolve(payload);
    };
    socket.on(event, on);
  });
}

describe(`outputs API (${testDbKind()})`, () => {
  const ai = useAiTestApp({ listen: true });
  const { call, socketOf } = ai;
  let ana: BuiltUser;
  let ben: BuiltUser;
  let noAccess: BuiltUser;
  let avatarId: number;

  beforeAll(async () => {
    ana = await buildUser(ai.t.ctx, { access: true });
    ben = await buildUser(ai.t.ctx, { access: true });
    noAccess = await buildUser(ai.t.ctx);
    await ai.withAiKey(ana, KEY);
    avatarId = (await call(ana, 'POST', '/api/avatars', { name: 'Coach', context: 'You are a warm running coach.' })).json().avatar_id;
  });

  it('generates outputs in the background and announces each with `output`, on the user own key', async () => {
    const socket = await socketOf(ana);
    const res = await call(ana, 'POST', '/api/outputs/generate', { assistant_id: avatarId, messages: ['Write a tip about pacing', 'Write a tip about rest'] });
    expect(res.statusCode).toBe(202);
    const pending = res.json().outputs;
    expect(pending).toHaveLength(2);
    expect(pending[0]).toMatchObject({ avatar_id: avatarId, status: 'pending', content: null, liked: null, training_id: null });
    const events = await Promise.all(pending.map((o: { output_id: number }) => nextEvent<OutputEventPayload>(socket, SocketEvents.output, (p) => p.output_id === o.output_id)));
    for (const event of events) {
      expect(event.output.status).toBe('done');
      expect(event.content?.length).toBeGreaterThan(0);
    }
    expect(String(ai.emulator.stats.lastHeaders?.authorization)).toBe(`Bearer ${KEY}`);
    const system = (ai.emulator.stats.lastRequest?.messages as { role: string; content: string }[])[0];
    expect(system).toEqual({ role: 'system', content: 'You are a warm running coach.' });

    const list = (await call(ana, 'GET', `/api/outputs/avatar/${avatarId}`)).json();
    expect(list.total).toBe(2);
    expect(list.outputs.every((o: { status: string }) => o.status === 'done')).toBe(true);
  });

  it('writes with the selected training model; lists by training; the editor gets `document_avatar`', async () => {
    const [training] = await ai.t.ctx.db
      .insert(trainings)
      .values({ userId: ana.user.userId, avatarId, name: 'v1', baseModel: 'gpt-4o-mini-2024-07-18', status: 'succeeded', progress: 100, fineTunedModel: 'ft:gpt-4o-mini-2024-07-18:org:coach:abc123', selected: true })
      .returning();
    const socket = await socketOf(ana);
    const res = await call(ana, 'POST', '/api/outputs/generate', { assistant_id: avatarId, messages: ['A tip for the editor'], target: 'document' });
    const [pending] = res.json().outputs;
    expect(pending).toMatchObject({ training_id: training.trainingId, model: 'ft:gpt-4o-mini-2024-07-18:org:coach:abc123' });
    const event = await nextEvent<OutputEventPayload>(socket, SocketEvents.documentAvatar, (p) => p.output_id === pending.output_id);
    expect(event.output.status).toBe('done');
    expect(ai.emulator.stats.lastRequest?.model).toBe('ft:gpt-4o-mini-2024-07-18:org:coach:abc123');
    const byTraining = (await call(ana, 'GET', `/api/outputs/training/${training.trainingId}`)).json();
    expect(byTraining.outputs.map((o: { output_id: number }) => o.output_id)).toEqual([pending.output_id]);
    expect((await call(ben, 'GET', `/api/outputs/training/${training.trainingId}`)).statusCode).toBe(404);
    await call(ana, 'PUT', '/api/trainings', { training_id: training.trainingId, selected: false });
  });

  it('rates, edits, creates, follows up in a thread and deletes; filters liked', async () => {
    const created = await call(ana, 'POST', '/api/outputs', { avatar_id: avatarId, prompt: 'Sample', content: 'Run easy on Mondays.' });
    expect(created.statusCode).toBe(201);
    const outputId = created.json().output_id;
    expect(created.json().abilities).toEqual({ read: true, update: true, rate: true, message: true, delete: true });
    expect((await call(ana, 'POST', '/api/outputs/rate', { output_id: outputId, liked: true })).json().liked).toBe(true);
    expect((await call(ana, 'PUT', '/api/outputs', { output_id: outputId, content: 'Run easy on Mondays and Fridays.' })).json().content).toBe('Run easy on Mondays and Fridays.');
    const empty = await call(ana, 'PUT', '/api/outputs', { output_id: outputId, content: '  ' });
    expect(empty.statusCode).toBe(400);
    const liked = (await call(ana, 'GET', `/api/outputs/avatar/${avatarId}?liked=true`)).json();
    expect(liked.outputs.map((o: { output_id: number }) => o.output_id)).toEqual([outputId]);
    expect((await call(ana, 'GET', `/api/outputs/avatar/${avatarId}?query=fridays`)).json().total).toBe(1);

    const socket = await socketOf(ana);
    const followUp = await call(ana, 'POST', '/api/outputs/message', { output_id: outputId, content: 'Make it shorter' });
    expect(followUp.statusCode).toBe(202);
    expect(followUp.json().thread.map((m: { role: string; content: string | null }) => [m.role, m.content])).toEqual([
      ['user', 'Make it shorter'],
      ['assistant', null],
    ]);
    const thread = await nextEvent<ThreadMessagesPayload>(socket, SocketEvents.threadMessages, (p) => p.output_id === outputId);
    expect(thread.isThread).toBe(true);
    expect(thread.threadMessages).toHaveLength(2);
    expect(thread.threadMessages.every((m) => m.isThread && m.output_id === outputId)).toBe(true);
    expect(thread.threadMessages[1].content?.length).toBeGreaterThan(0);
    const turns = ai.emulator.stats.lastRequest?.messages as { role: string; content: string }[];
    expect(turns.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect((await call(ana, 'GET', `/api/outputs/${outputId}`)).json().thread).toHaveLength(2);

    expect((await call(ana, 'DELETE', `/api/outputs/${outputId}`)).statusCode).toBe(200);
    expect((await call(ana, 'GET', `/api/outputs/${outputId}`)).statusCode).toBe(404);
  });

  it('GET /messages/thread/{id}[/{x}]: the newest 10 of the thread, then 10 before a cursor of that thread; others get 404', async () => {
    const create = async () => (await call(ana, 'POST', '/api/outputs', { avatar_id: avatarId, prompt: 'Thread', content: 'First answer.' })).json().output_id as number;
    const outputId = await create();
    const otherId = await create();
    const rows = Array.from({ length: 23 }, (_, i) => ({ outputId, role: i % 2 === 0 ? 'user' : 'assistant', content: `message ${i + 1}` }));
    const inserted = await ai.t.ctx.db.insert(outputMessages).values(rows).returning();
    const [foreign] = await ai.t.ctx.db.insert(outputMessages).values({ outputId: otherId, role: 'user', content: 'elsewhere' }).returning();
    const contents = (page: { messages: { content: string }[] }) => page.messages.map((m) => m.content);

    const first = await call(ana, 'GET', `/api/messages/thread/${outputId}`);
    expect(first.statusCode, first.body).toBe(200);
    const page1 = first.json();
    expect(contents(page1)).toEqual(Array.from({ length: 10 }, (_, i) => `message ${23 - i}`));
    expect(page1.messages[0]).toEqual({
      output_message_id: inserted[22].outputMessageId,
      output_id: outputId,
      role: 'user',
      content: 'message 23',
      isThread: true,
      createdAt: expect.any(String),
    });
    expect(page1.next_cursor).toBe(inserted[13].outputMessageId);
    const page2 = (await call(ana, 'GET', `/api/messages/thread/${outputId}/${page1.next_cursor}`)).json();
    expect(contents(page2)).toEqual(Array.from({ length: 10 }, (_, i) => `message ${13 - i}`));
    const page3 = (await call(ana, 'GET', `/api/messages/thread/${outputId}/${page2.next_cursor}`)).json();
    expect(contents(page3)).toEqual(['message 3', 'message 2', 'message 1']);
    expect(page3.next_cursor).toBeNull();
    expect((await call(ana, 'GET', `/api/messages/thread/${otherId}`)).json()).toMatchObject({ output_id: otherId, next_cursor: null, messages: [{ content: 'elsewhere' }] });

    // A cursor of another thread, another user's output (with a valid cursor of it), no access, no session.
    expect((await call(ana, 'GET', `/api/messages/thread/${outputId}/${foreign.outputMessageId}`)).statusCode).toBe(404);
    expect((await call(ana, 'GET', `/api/messages/thread/${outputId}/abc`)).statusCode).toBe(400);
    expect((await call(ben, 'GET', `/api/messages/thread/${outputId}`)).statusCode).toBe(404);
    expect((await call(ben, 'GET', `/api/messages/thread/${outputId}/${page1.next_cursor}`)).statusCode).toBe(404);
    expect((await call(noAccess, 'GET', `/api/messages/thread/${outputId}`)).statusCode).toBe(412);
    expect((await call(null, 'GET', `/api/messages/thread/${outputId}`)).statusCode).toBe(401);
  });

  it("is a 404 for another user's output on every route and for an avatar they may not see; 412 without access", async () => {
    const outputId = (await call(ana, 'POST', '/api/outputs', { avatar_id: avatarId, prompt: 'p', content: 'c' })).json().output_id;
    const routes: [Method, string, object?][] = [
      ['GET', `/api/outputs/${outputId}`],
      ['PUT', '/api/outputs', { output_id: outputId, content: 'mine' }],
      ['POST', '/api/outputs/rate', { output_id: outputId, liked: true }],
      ['POST', '/api/outputs/message', { output_id: outputId, content: 'hi' }],
      ['DELETE', `/api/outputs/${outputId}`],
      ['GET', `/api/outputs/avatar/${avatarId}`],
      ['POST', '/api/outputs/generate', { assistant_id: avatarId, messages: ['x'] }],
      ['POST', '/api/outputs', { avatar_id: avatarId, prompt: 'p', content: 'c' }],
    ];
    for (const [method, path, body] of routes) expect((await call(ben, method, path, body)).statusCode, `${method} ${path}`).toBe(404);
    expect((await call(noAccess, 'GET', `/api/outputs/avatar/${avatarId}`)).statusCode).toBe(412);
    expect((await call(noAccess, 'POST', '/api/outputs/generate', { assistant_id: avatarId, messages: ['x'] })).statusCode).toBe(412);
    expect((await call(null, 'POST', '/api/outputs/rate', { output_id: outputId, liked: true })).statusCode).toBe(401);
    expect((await call(ana, 'GET', `/api/outputs/${outputId}`)).json().content).toBe('c');
  });
});
