// The official `openai` SDK's files and fine-tuning calls against the emulator: upload, a job that moves
// with the clock to success (metrics events, fine_tuned_model), failure on demand and for a bad file,
// cancel, and another key's 404.
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from './http-kit';
import { startOpenAiEmulator } from './openai';
import { checkTrainingFile } from './openai-fine-tuning';

let emulator: RunningEmulator;
let client: OpenAI;

beforeAll(async () => {
  emulator = await startOpenAiEmulator({ port: 0, host: '127.0.0.1' });
  client = new OpenAI({ apiKey: 'sk-owner-key-1', baseURL: emulator.url, maxRetries: 0 });
});
afterAll(() => emulator.close());

const example = (i: number, extra = '') =>
  JSON.stringify({ messages: [{ role: 'system', content: `You are Ana.${extra}` }, { role: 'user', content: `Question ${i}` }, { role: 'assistant', content: `Answer ${i}` }] });
const jsonl = (n: number, extra = '') => Array.from({ length: n }, (_, i) => example(i, extra)).join('\n');
const upload = async (text: string, name = 'train.jsonl') => client.files.create({ file: await toFile(Buffer.from(text), name), purpose: 'fine-tune' });

async function waitFor(id: string, statuses: string[], timeoutMs = 5000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const job = await client.fineTuning.jobs.retrieve(id);
    if (statuses.includes(job.status) || Date.now() > end) return job;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('files and fine-tuning jobs', () => {
  it('uploads a JSONL file and runs a job through its states to a fine-tuned model, with metrics events', async () => {
    const file = await upload(jsonl(12, ' [fine-tune:ms=600]'));
    expect(file).toMatchObject({ object: 'file', purpose: 'fine-tune', filename: 'train.jsonl', status: 'processed' });
    const job = await client.fineTuning.jobs.create({ model: 'gpt-4o-mini-2024-07-18', training_file: file.id, suffix: 'ana' });
    expect(job).toMatchObject({ object: 'fine_tuning.job', status: 'validating_files', fine_tuned_model: null, training_file: file.id });
    const running = await waitFor(job.id, ['running', 'succeeded']);
    expect(['running', 'succeeded']).toContain(running.status);
    const done = await waitFor(job.id, ['succeeded']);
    expect(done.status).toBe('succeeded');
    expect(done.fine_tuned_model).toMatch(/^ft:gpt-4o-mini-2024-07-18:pluma-emulator:ana:/);
    const events = (await client.fineTuning.jobs.listEvents(job.id, { limit: 100 })).data;
    expect(events[0].message).toBe('The job has successfully completed');
    const metrics = events.filter((e) => e.type === 'metrics');
    expect(metrics.length).toBeGreaterThan(2);
    expect(metrics[0].data).toMatchObject({ step: metrics.length, total_steps: metrics.length });
    // A fine-tuned model can be tuned further (refine).
    const again = await client.fineTuning.jobs.create({ model: done.fine_tuned_model!, training_file: file.id });
    expect(again.model).toBe(done.fine_tuned_model);
  });

  it("answers chat completions with a fine-tuned model for its own key only, even where the served models are listed", async () => {
    const listed = await startOpenAiEmulator({ port: 0, host: '127.0.0.1', models: ['gpt-4o-mini'] });
    try {
      const owner = new OpenAI({ apiKey: 'sk-owner-key-1', baseURL: listed.url, maxRetries: 0 });
      const other = new OpenAI({ apiKey: 'sk-other-key-2', baseURL: listed.url, maxRetries: 0 });
      const file = await owner.files.create({ file: await toFile(Buffer.from(jsonl(10, ' [fine-tune:ms=200]')), 'train.jsonl'), purpose: 'fine-tune' });
      const job = await owner.fineTuning.jobs.create({ model: 'gpt-4o-mini-2024-07-18', training_file: file.id, suffix: 'coach' });
      const ask = (client: OpenAI, model: string) => client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hello' }] });
      let done = await owner.fineTuning.jobs.retrieve(job.id);
      for (let i = 0; i < 100 && done.status !== 'succeeded'; i++) {
        await new Promise((r) => setTimeout(r, 25));
        done = await owner.fineTuning.jobs.retrieve(job.id);
      }
      const model = done.fine_tuned_model!;
      const answer = await ask(owner, model);
      expect(answer.model).toBe(model);
      expect(answer.choices[0].message.content).toBeTruthy();
      // Streamed too.
      const chunks: string[] = [];
      for await (const chunk of await owner.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }], stream: true })) chunks.push(chunk.choices[0]?.delta?.content ?? '');
      expect(chunks.join('')).toBeTruthy();
      await expect(ask(other, model)).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
      // A name the emulator did not make follows the served list.
      await expect(ask(owner, 'ft:gpt-4o-mini-2024-07-18:elsewhere:x:1')).rejects.toMatchObject({ status: 404 });
    } finally {
      await listed.close();
    }
  });

  it('fails on demand while running, and fails a file with too few examples at validation', async () => {
    const failing = await client.fineTuning.jobs.create({ model: 'gpt-4o-mini-2024-07-18', training_file: (await upload(jsonl(10, ' [fine-tune:fail] [fine-tune:ms=300]'))).id });
    const failed = await waitFor(failing.id, ['failed']);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatchObject({ code: 'fine_tune_failed' });
    const small = await client.fineTuning.jobs.create({ model: 'gpt-4o-mini-2024-07-18', training_file: (await upload(jsonl(3, ' [fine-tune:ms=200]'))).id });
    const invalid = await waitFor(small.id, ['failed']);
    expect(invalid.error).toMatchObject({ code: 'invalid_training_file', param: 'training_file' });
    expect(invalid.error?.message).toContain('at least 10 examples');
  });

  it('cancels a running job, refuses unknown models and other keys', async () => {
    const file = await upload(jsonl(10, ' [fine-tune:ms=60000]'));
    const job = await client.fineTuning.jobs.create({ model: 'gpt-4o-mini-2024-07-18', training_file: file.id });
    expect((await client.fineTuning.jobs.cancel(job.id)).status).toBe('cancelled');
    await expect(client.fineTuning.jobs.cancel(job.id)).rejects.toMatchObject({ status: 400 });
    await expect(client.fineTuning.jobs.create({ model: 'gpt-5-turbo-x', training_file: file.id })).rejects.toMatchObject({ status: 400 });
    const other = new OpenAI({ apiKey: 'sk-other-key-2', baseURL: emulator.url, maxRetries: 0 });
    await expect(other.fineTuning.jobs.retrieve(job.id)).rejects.toMatchObject({ status: 404 });
    await expect(other.files.retrieve(file.id)).rejects.toMatchObject({ status: 404 });
    await expect(upload('not json', 'train.txt')).rejects.toMatchObject({ status: 400 });
    expect((await client.files.delete(file.id)).deleted).toBe(true);
    await expect(client.files.retrieve(file.id)).rejects.toMatchObject({ status: 404 });
  });

  it('checks the chat format line by line', () => {
    expect(checkTrainingFile(jsonl(10)).problem).toBeNull();
    expect(checkTrainingFile(`${jsonl(10)}\n{bad`).problem).toMatch(/Line 11 is not valid JSON/);
    expect(checkTrainingFile(JSON.stringify({ messages: [{ role: 'user', content: 'x' }] })).problem).toMatch(/no assistant message/);
  });
});
