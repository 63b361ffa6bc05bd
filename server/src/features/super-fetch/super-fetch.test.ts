// Super Fetch through the real app, the OpenAI emulator and a real database (issue 14 item 4): validation
// (spec messages, nothing saved), N outputs written concurrently and streamed as `super_fetch_outputs`,
// saved as they stream (the history after a reload), words held per output (a short balance starts fewer,
// none is 412), a mid-stream provider failure keeps the partial text, feedback rounds, the file as
// context, rating, cleaning; another user's runs and outputs are 404, organization scope is refused (404).
import { SocketEvents } from '@pluma/common/events';
import type { SuperFetchOutput, SuperFetchOutputsPayload, SuperFetchRun } from '@pluma/common/super-fetch';
import { countWords } from '@pluma/common/rules/token-estimate';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { superFetchRuns, users } from '../../db/schema';
import type { ClientSocket } from '../../platform/realtime/socket-test-helpers';
import { multipartBody } from '../files/test-fixtures';
import { buildOrganization, buildUser, grantAccess, type BuiltUser } from '../../test/factories';
import { useAiTestApp } from '../../test/ai-app';
import { testDbKind } from '../../test/test-db';

type Frame = SuperFetchOutputsPayload;

const brief = (task: string, extra: object = {}) => ({
  task,
  topic: 'Trail running shoes',
  target: 'Weekend runners',
  person: 'A friendly coach',
  tone: 'Warm',
  format: 'AIDA',
  ...extra,
});

describe(`super fetch API (${testDbKind()})`, () => {
  const ai = useAiTestApp({ listen: true });
  const { call, socketOf } = ai;
  let ana: BuiltUser;
  let ben: BuiltUser;
  let noAccess: BuiltUser;
  /** Every frame of a run until each of its `count` outputs has ended. */
  const framesOf = (socket: ClientSocket, count: number, timeoutMs = 20_000) => {
    const frames: Frame[] = [];
    let runId: number | null = null;
    const ended = new Map<number, SuperFetchOutput>();
    let resolveDone: (v: { frames: Frame[]; ended: Map<number, SuperFetchOutput> }) => void;
    const done = new Promise<{ frames: Frame[]; ended: Map<number, SuperFetchOutput> }>((resolve, reject) => {
      resolveDone = resolve;
      setTimeout(() => reject(new Error(`only ${ended.size} of ${count} outputs ended`)), timeoutMs);
    });
    const on = (frame: Frame) => {
      if (runId !== null && frame.run_id !== runId) return;
      frames.push(frame);
      if (!frame.stream) for (const o of frame.outputs as SuperFetchOutput[]) ended.set(o.output_id, o);
      if (ended.size === count) {
        socket.off(SocketEvents.superFetchOutputs, on);
        resolveDone({ frames, ended });
      }
    };
    socket.on(SocketEvents.superFetchOutputs, on);
    return { done, forRun: (id: number) => (runId = id) };
  };
  const history = async (who: BuiltUser, assistantId: number) => {
    const res = await call(who, 'GET', `/api/super_fetch/messages/${assistantId}`);
    expect(res.statusCode).toBe(200);
    return res.json() as { runs: SuperFetchRun[]; total: number };
  };
  const superFetchAvatarOf = async (who: BuiltUser) => (await call(who, 'GET', '/api/avatars/super-fetch')).json().avatar_id as number;
  const wordsOf = async (who: BuiltUser) => {
    const [row] = await ai.t.ctx.db.select({ available: users.availableWords, held: users.heldWords }).from(users).where(eq(users.userId, who.user.userId));
    return row;
  };

  beforeAll(async () => {
    ana = await buildUser(ai.t.ctx, { access: true });
    ben = await buildUser(ai.t.ctx, { access: true, lang: 'es' });
    noAccess = await buildUser(ai.t.ctx);
  });

  it('refuses missing inputs, 0 outputs and feedback without text with the spec messages, and saves nothing', async () => {
    const blank = await call(ana, 'POST', '/api/super_fetch/v2', { ...brief('Write a post'), topic: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().details.topic).toBe("The input can't be empty");
    const missing = await call(ben, 'POST', '/api/super_fetch/v2', { task: 'x' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details.format).toBe('El campo no puede estar vacío');
    const none = await call(ana, 'POST', '/api/super_fetch/v2', { ...brief('Write a post'), outputs: 0 });
    expect(none.statusCode).toBe(400);
    expect(none.json().details.outputs).toBe('Choose between 1 and 10 outputs.');
    const noFeedback = await call(ana, 'POST', '/api/super_fetch/v2', { ...brief('Write a post'), feedback: { input: ' ', liked: true } });
    expect(noFeedback.statusCode).toBe(400);
    expect(noFeedback.json().message).toBe('Write your feedback before asking for a modified prompt.');
    const firstRound = await call(ana, 'POST', '/api/super_fetch/v2', { ...brief('Write a post'), feedback: { input: 'Shorter', liked: false } });
    expect(firstRound.statusCode).toBe(400);
    expect(firstRound.json().message).toBe('There are no results to give feedback on yet.');
    expect(await ai.t.ctx.db.select().from(superFetchRuns).where(eq(superFetchRuns.userId, ana.user.userId))).toHaveLength(0);
  });

  it('412 without access; 404 in organization scope, also for a member', async () => {
    expect((await call(noAccess, 'POST', '/api/super_fetch/v2', brief('Write a post'))).statusCode).toBe(412);
    const org = await buildOrganization(ai.t.ctx, [{ user: ana, role: 'admin' }]);
    const inOrg = await call(ana, 'POST', '/api/super_fetch/v2', { ...brief('Write a post'), organization_id: org.organizationId });
    expect(inOrg.statusCode).toBe(404);
    expect(inOrg.json().message).toBe('Super Fetch is only available in your personal space, not in an organization.');
    const avatarId = await superFetchAvatarOf(ana);
    expect((await call(ana, 'GET', `/api/super_fetch/messages/${avatarId}?organization_id=${org.organizationId}`)).statusCode).toBe(404);
  });

  it('writes 3 outputs at once, streams them as super_fetch_outputs and keeps them for a reload', async () => {
    const socket = await socketOf(ana);
    const listen = framesOf(socket, 3);
    const before = await wordsOf(ana);
    // [rate] keeps each output streaming for about 1.5 s, so written one after the other they could not overlap.
    const res = await call(ana, 'POST', '/api/super_fetch/v2', brief('[words:30] [rate:20] Write a launch post', { outputs: 3, examples: 'Run free.' }));
    expect(res.statusCode).toBe(202);
    const run = res.json() as SuperFetchRun;
    listen.forRun(run.run_id);
    // A use of the app: the customers tables' 'Last used' (issue 30 item 8).
    const [used] = await ai.t.ctx.db.select({ at: users.lastUsedAt }).from(users).where(eq(users.userId, ana.user.userId));
    expect(used?.at).toBeInstanceOf(Date);
    expect(run.requested).toBe(3);
    expect(run.outputs.map((o) => [o.position, o.status, o.content])).toEqual([
      [1, 'pending', null],
      [2, 'pending', null],
      [3, 'pending', null],
    ]);
    expect(run.prompt).toContain('Topic: Trail running shoes');
    expect(run.prompt).toContain('Examples to take inspiration from: Run free.');
    // An empty optional input leaves no line behind.
    expect(run.prompt).not.toContain('Call to action');
    // Each output holds its words while it runs.
    expect((await wordsOf(ana)).held).toBe(3 * ai.t.ctx.env.AI_MAX_ANSWER_TOKENS);

    const { frames, ended } = await listen.done;
    // Concurrent: every output streamed text before the first one ended.
    const firstEnd = frames.findIndex((f) => !f.stream);
    const streamedBefore = new Set(frames.slice(0, firstEnd).flatMap((f) => f.outputs.map((o) => o.output_id)));
    expect(streamedBefore.size).toBe(3);
    expect(frames.every((f) => f.enhancePrompt === run.prompt)).toBe(true);
    for (const output of run.outputs) {
      const final = ended.get(output.output_id)!;
      expect(final.status).toBe('done');
      const deltas = frames.filter((f) => f.stream).flatMap((f) => f.outputs.filter((o) => o.output_id === output.output_id).map((o) => (o as { delta: string }).delta));
      expect(deltas.join('')).toBe(final.content);
      expect(final.content!.split(/\s+/).filter(Boolean).length).toBe(30);
    }
    const system = (ai.emulator.stats.lastRequest?.messages as { role: string; content: string }[])[0];
    expect(system.role).toBe('system');
    expect(system.content).toContain('You are Super Fetch');

    const saved = await history(ana, run.assistant_id);
    expect(saved.total).toBe(1);
    expect(saved.runs[0].outputs.map((o) => o.content)).toEqual(run.outputs.map((o) => ended.get(o.output_id)!.content));
    expect(saved.runs[0].inputs).toMatchObject({ topic: 'Trail running shoes', examples: 'Run free.', callToAction: '' });
    // Charged once per output for its words; nothing left held.
    expect(await wordsOf(ana)).toEqual({ available: before.available - 90, held: 0 });
  });

  it('starts as many outputs as the balance covers, and refuses with 412 when it covers none', async () => {
    const cara = await buildUser(ai.t.ctx);
    await grantAccess(ai.t.ctx, cara.user.userId, 50);
    const socket = await socketOf(cara);
    const listen = framesOf(socket, 1);
    const res = await call(cara, 'POST', '/api/super_fetch/v2', brief('[words:80] Write a post', { outputs: 3 }));
    expect(res.statusCode).toBe(202);
    const run = res.json() as SuperFetchRun;
    listen.forRun(run.run_id);
    expect(run.requested).toBe(3);
    expect(run.outputs).toHaveLength(1);
    const { ended } = await listen.done;
    // Stopped at its hold: the balance's 50 words.
    expect([...ended.values()][0].content!.split(/\s+/).filter(Boolean)).toHaveLength(50);
    expect(await wordsOf(cara)).toEqual({ available: 0, held: 0 });
    const refused = await call(cara, 'POST', '/api/super_fetch/v2', brief('Write a post'));
    expect(refused.statusCode).toBe(412);
    expect(refused.json().error).toBe('premium_required');
    expect((await history(cara, run.assistant_id)).total).toBe(1);
  });

  it('keeps the partial text of an output whose provider failed mid-stream, marks it failed and charges what it wrote', async () => {
    const dan = await buildUser(ai.t.ctx, { access: true });
    const before = await wordsOf(dan);
    const socket = await socketOf(dan);
    const listen = framesOf(socket, 1);
    const res = await call(dan, 'POST', '/api/super_fetch/v2', brief('[stream-error:5] Write a post'));
    const run = res.json() as SuperFetchRun;
    listen.forRun(run.run_id);
    const { ended } = await listen.done;
    const failed = [...ended.values()][0];
    expect(failed.status).toBe('failed');
    expect(failed.error_code).toBeTruthy();
    expect(failed.content!.split(/\s+/).filter(Boolean)).toHaveLength(5);
    const [saved] = (await history(dan, run.assistant_id)).runs[0].outputs;
    expect(saved).toMatchObject({ status: 'failed', content: failed.content });
    expect(await wordsOf(dan)).toEqual({ available: before.available - 5, held: 0 });
  });

  it("Stop (issue 30 item 1): one output, then the rest; text kept, marked stopped, charged what was written, every tab told; owner only, idempotent", async () => {
    const fay = await buildUser(ai.t.ctx, { access: true });
    const before = await wordsOf(fay);
    const [tabA, tabB] = [await socketOf(fay), await socketOf(fay)];
    const [listenA, listenB] = [framesOf(tabA, 2), framesOf(tabB, 2)];
    // Both outputs have written something: each has a delta in a frame.
    const writing = new Promise<void>((resolve) => {
      const seen = new Set<number>();
      const on = (frame: Frame) => {
        for (const o of frame.outputs) if (frame.stream && 'delta' in o && o.delta.trim()) seen.add(o.output_id);
        if (seen.size === 2) {
          tabA.off(SocketEvents.superFetchOutputs, on);
          resolve();
        }
      };
      tabA.on(SocketEvents.superFetchOutputs, on);
    });
    // Long and slow: it would write for minutes unless stopped.
    const res = await call(fay, 'POST', '/api/super_fetch/v2', brief('[words:3000] [rate:20] Write a long story', { outputs: 2 }));
    const run = res.json() as SuperFetchRun;
    listenA.forRun(run.run_id);
    listenB.forRun(run.run_id);
    expect(run.outputs.every((o) => o.abilities.stop && !o.abilities.rate)).toBe(true);
    await writing;
    const [first, second] = run.outputs;

    // Someone else's run or output is not there for them; an output of another run is not this run's.
    expect((await call(ben, 'POST', '/api/super_fetch/stop', { run_id: run.run_id })).statusCode).toBe(404);
    expect((await call(ben, 'POST', '/api/super_fetch/stop', { run_id: run.run_id, output_id: first.output_id })).statusCode).toBe(404);
    const gus = await buildUser(ai.t.ctx, { access: true });
    const gusRun = (await call(gus, 'POST', '/api/super_fetch/v2', brief('[words:3] [rate:0] Write a post'))).json() as SuperFetchRun;
    expect((await call(fay, 'POST', '/api/super_fetch/stop', { run_id: run.run_id, output_id: gusRun.outputs[0].output_id })).statusCode).toBe(404);
    expect((await call(fay, 'POST', '/api/super_fetch/stop', { run_id: gusRun.run_id })).statusCode).toBe(404);
    expect((await call(fay, 'POST', '/api/super_fetch/stop', { run_id: 'x' })).statusCode).toBe(400);

    // One output: it ends stopped with its text; the other still runs.
    const one = await call(fay, 'POST', '/api/super_fetch/stop', { run_id: run.run_id, output_id: first.output_id });
    expect(one.statusCode, one.body).toBe(200);
    const afterOne = (one.json() as SuperFetchRun).outputs;
    expect(afterOne[0]).toMatchObject({ status: 'stopped', error_code: null, abilities: { rate: true, stop: false } });
    expect(afterOne[0].content!.trim().length).toBeGreaterThan(0);
    // (Saved as 'pending' until its first progress save.)
    expect(afterOne[1]).toMatchObject({ status: expect.stringMatching(/^(pending|streaming)$/), abilities: { stop: true } });

    // The rest: one Stop ends every output still running.
    const all = await call(fay, 'POST', '/api/super_fetch/stop', { run_id: run.run_id });
    expect(all.statusCode).toBe(200);
    const stopped = (all.json() as SuperFetchRun).outputs;
    expect(stopped.map((o) => o.status)).toEqual(['stopped', 'stopped']);
    expect(stopped[0].content).toBe(afterOne[0].content);
    // Every open tab saw each output end, stopped, with the text kept.
    for (const listen of [listenA, listenB]) {
      const { ended } = await listen.done;
      expect(stopped.map((o) => ended.get(o.output_id))).toEqual(stopped.map((o) => expect.objectContaining({ status: 'stopped', content: o.content })));
    }
    const words = stopped.map((o) => countWords(o.content!));
    expect(words.every((n) => n > 0 && n < 3000)).toBe(true);
    // Charged only the words written; nothing left held.
    expect(await wordsOf(fay)).toEqual({ available: before.available - words[0] - words[1], held: 0 });

    // Again: nothing changes, nothing more is charged.
    const again = await call(fay, 'POST', '/api/super_fetch/stop', { run_id: run.run_id });
    expect(again.statusCode).toBe(200);
    expect((again.json() as SuperFetchRun).outputs).toEqual(stopped);
    expect((await history(fay, run.assistant_id)).runs[0].outputs).toEqual(stopped);
    expect((await wordsOf(fay)).available).toBe(before.available - words[0] - words[1]);
    // A stopped output can be rated.
    expect((await call(fay, 'POST', '/api/super_fetch/rate', { output_id: second.output_id, liked: true })).statusCode).toBe(200);
  });

  it('rates outputs, and a feedback round sends the rated results and the feedback with the brief', async () => {
    const avatarId = await superFetchAvatarOf(ana);
    const [previous] = (await history(ana, avatarId)).runs;
    const rated = await call(ana, 'POST', '/api/super_fetch/rate', { output_id: previous.outputs[1].output_id, liked: true });
    expect(rated.statusCode).toBe(200);
    expect(rated.json()).toMatchObject({ output_id: previous.outputs[1].output_id, liked: true });

    const socket = await socketOf(ana);
    const listen = framesOf(socket, 1);
    const res = await call(ana, 'POST', '/api/super_fetch/v2', brief('[echo] Write a launch post', { feedback: { input: 'Make it punchier', liked: false } }));
    expect(res.statusCode).toBe(202);
    const run = res.json() as SuperFetchRun;
    listen.forRun(run.run_id);
    expect(run.feedback).toEqual({ input: 'Make it punchier', liked: false, run_id: previous.run_id });
    const echoed = [...(await listen.done).ended.values()][0].content!;
    expect(echoed).toContain('Result 2 (liked)');
    expect(echoed).toContain(previous.outputs[1].content!.split(' ').slice(0, 5).join(' '));
    expect(echoed).toContain('Overall verdict on them: disliked.');
    expect(echoed).toContain('Feedback: Make it punchier');
    expect((await history(ana, avatarId)).runs[0].outputs[0].liked).toBeNull();
  });

  it('uses the text of an uploaded file as context, and refuses a file type it cannot read', async () => {
    const upload = async (who: BuiltUser, name: string, bytes: Buffer) => {
      const { payload, headers } = multipartBody({ name, bytes });
      const res = await ai.t.app.inject({ method: 'POST', url: '/api/files', payload, headers: { ...headers, ...who.auth } });
      expect(res.statusCode).toBe(201);
      return res.json().file_id as number;
    };
    const fileId = await upload(ana, 'brief.txt', Buffer.from('Our shoes weigh 180 grams and drain water in seconds.'));
    const socket = await socketOf(ana);
    const listen = framesOf(socket, 1);
    const res = await call(ana, 'POST', '/api/super_fetch/v2', brief('[echo] Write a product post', { file_id: fileId }));
    expect(res.statusCode).toBe(202);
    const run = res.json() as SuperFetchRun;
    listen.forRun(run.run_id);
    expect(run.file).toEqual({ file_id: fileId, name: 'brief.txt', truncated: false });
    const echoed = [...(await listen.done).ended.values()][0].content!;
    expect(echoed).toContain('drain water in seconds');
    expect(echoed).toContain('Use the above text to make a response for the next request');

    const { pngBytes } = await import('../files/test-fixtures');
    const picture = await upload(ana, 'shoe.png', pngBytes());
    const refused = await call(ana, 'POST', '/api/super_fetch/v2', brief('Write a post', { file_id: picture }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('Super Fetch reads .docx, .pdf, .pptx and .txt files.');
    // Another user's file is not there for them.
    expect((await call(ben, 'POST', '/api/super_fetch/v2', brief('Write a post', { file_id: fileId }))).statusCode).toBe(404);
  });

  it("another user's runs, outputs and feedback targets are 404; clean removes only the actor's runs", async () => {
    const avatarId = await superFetchAvatarOf(ana);
    const [latest] = (await history(ana, avatarId)).runs;
    expect((await call(ben, 'GET', `/api/super_fetch/messages/${avatarId}`)).statusCode).toBe(404);
    expect((await call(ben, 'DELETE', `/api/super_fetch/messages/${avatarId}`)).statusCode).toBe(404);
    expect((await call(ben, 'POST', '/api/super_fetch/rate', { output_id: latest.outputs[0].output_id, liked: true })).statusCode).toBe(404);
    const feedback = await call(ben, 'POST', '/api/super_fetch/v2', brief('Write a post', { feedback: { input: 'More', liked: null, run_id: latest.run_id } }));
    expect(feedback.statusCode).toBe(404);
    expect((await history(ben, await superFetchAvatarOf(ben))).total).toBe(0);

    const before = (await history(ana, avatarId)).total;
    const cleaned = await call(ana, 'DELETE', `/api/super_fetch/messages/${avatarId}`);
    expect(cleaned.json()).toEqual({ deleted: before });
    expect((await history(ana, avatarId)).total).toBe(0);
  });
  it('POST /super_fetch {fields}: the first version, the nine inputs in order, one output, refused like v2', async () => {
    const eve = await buildUser(ai.t.ctx, { access: true });
    const fieldsOf = (values: string[]) => values.map((value, i) => ({ label: `Input ${i + 1}`, value, required: i < 6, editable: true, isValid: true }));
    const values = ['[echo] Write a product post', 'Trail shoes', 'Runners', 'A coach', 'Warm', 'AIDA', 'Run free.', 'Buy now', ''];

    const short = await call(eve, 'POST', '/api/super_fetch', { fields: fieldsOf(values.slice(0, 8)) });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('Send the nine Super Fetch inputs in order: task, topic, target audience, persona, tone, formula, examples, call to action and prompt.');
    const blank = await call(eve, 'POST', '/api/super_fetch', { fields: fieldsOf(values.map((v, i) => (i === 1 ? '  ' : v))) });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().details.topic).toBe("The input can't be empty");
    expect((await call(eve, 'POST', '/api/super_fetch', { fields: 'task' })).statusCode).toBe(400);
    expect((await call(noAccess, 'POST', '/api/super_fetch', { fields: fieldsOf(values) })).statusCode).toBe(412);
    const org = await buildOrganization(ai.t.ctx, [{ user: eve, role: 'admin' }]);
    expect((await call(eve, 'POST', '/api/super_fetch', { fields: fieldsOf(values), organization_id: org.organizationId })).statusCode).toBe(404);
    // Another user's avatar is not theirs to run.
    expect((await call(eve, 'POST', '/api/super_fetch', { fields: fieldsOf(values), assistant_id: await superFetchAvatarOf(ana) })).statusCode).toBe(404);
    expect(await ai.t.ctx.db.select().from(superFetchRuns).where(eq(superFetchRuns.userId, eve.user.userId))).toHaveLength(0);

    const socket = await socketOf(eve);
    const listen = framesOf(socket, 1);
    const res = await call(eve, 'POST', '/api/super_fetch', { fields: fieldsOf(values) });
    expect(res.statusCode, res.body).toBe(202);
    const run = res.json() as SuperFetchRun;
    listen.forRun(run.run_id);
    expect(run).toMatchObject({ requested: 1, assistant_id: await superFetchAvatarOf(eve) });
    expect(run.inputs).toMatchObject({ task: values[0], topic: 'Trail shoes', target: 'Runners', person: 'A coach', tone: 'Warm', format: 'AIDA', examples: 'Run free.', callToAction: 'Buy now', prompt: '' });
    const echoed = [...(await listen.done).ended.values()][0].content!;
    expect(echoed).toContain('Trail shoes');
    expect(echoed).toContain('Buy now');
    expect((await history(eve, run.assistant_id)).total).toBe(1);
  });
});
