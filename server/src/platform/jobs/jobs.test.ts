import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobProgress } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/test-app';
import { testDbKind } from '../../test/test-db';
import { createJobs, JOB_EXPIRE_SECONDS, type PgBossJobs } from './index';

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe(`jobs on pg-boss (${testDbKind()})`, () => {
  let t: TestApp;
  let jobs: PgBossJobs;
  beforeAll(async () => {
    t = await createTestApp();
    jobs = createJobs(t.ctx, { pollingIntervalSeconds: 0.5, retryDelaySeconds: 0, retryBackoff: false });
    await jobs.start();
  });
  afterAll(async () => {
    await jobs.stop();
    await t.close();
  });

  it('is registered by startApp', () => {
    expect(t.ctx.services.jobs).toBeDefined();
  });

  it('runs a job that reports progress; the status shows it while running and after a reload', async () => {
    const release = gate();
    const seen: Record<string, unknown>[] = [];
    await jobs.work('test-progress', async (data, progress) => {
      seen.push(data);
      await progress(40, 'halfway there');
      await release.opened;
      return { words: 1200 };
    });
    const jobId = await jobs.send('test-progress', { trainingId: 7 });
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);

    const running = await waitFor(() => jobs.status('test-progress', jobId!), (s) => s?.progress === 40);
    expect(running).toEqual({ state: 'active', progress: 40, note: 'halfway there', output: null });
    release.open();

    const done = await waitFor(() => jobs.status('test-progress', jobId!), (s) => s?.state === 'completed');
    expect(done).toEqual({ state: 'completed', progress: 100, note: 'halfway there', output: { words: 1200 } });
    expect(seen).toEqual([{ trainingId: 7 }]);

    // A reload (another instance, no worker) reads the same progress from the database.
    const [row] = await t.ctx.db.select().from(jobProgress).where(eq(jobProgress.jobId, jobId!));
    expect(row).toMatchObject({ queue: 'test-progress', percent: 100, note: 'halfway there' });
    const other = createJobs(t.ctx);
    await other.start();
    try {
      expect(await other.status('test-progress', jobId!)).toEqual(done);
    } finally {
      await other.stop();
    }
  });

  it('retries a failing job, then marks it failed without exposing the stack', async () => {
    let attempts = 0;
    await jobs.work('test-failing', async (_data, progress) => {
      attempts += 1;
      await progress(10 * attempts);
      throw new Error(`provider down (attempt ${attempts})`);
    });
    const jobId = await jobs.send('test-failing', {}, { retryLimit: 1 });
    const failed = await waitFor(() => jobs.status('test-failing', jobId!), (s) => s?.state === 'failed');
    expect(attempts).toBe(2);
    expect(failed).toEqual({ state: 'failed', progress: 20, note: null, output: { message: 'provider down (attempt 2)' } });
  });

  it('sets the 15-minute expiry on every job', async () => {
    const jobId = await jobs.send('test-expiry', { a: 1 });
    const { rows } = await t.ctx.database.executeSql('SELECT EXTRACT(EPOCH FROM expire_in)::int AS seconds FROM pgboss.job WHERE id = $1', [jobId]);
    expect(Number(rows[0].seconds)).toBe(JOB_EXPIRE_SECONDS);
  });

  it('keeps one waiting job per singleton key', async () => {
    const first = await jobs.send('test-singleton', { n: 1 }, { singletonKey: 'training-9' });
    const second = await jobs.send('test-singleton', { n: 2 }, { singletonKey: 'training-9' });
    const otherKey = await jobs.send('test-singleton', { n: 3 }, { singletonKey: 'training-10' });
    expect(first).toBeTruthy();
    expect(second).toBeNull();
    expect(otherKey).toBeTruthy();
  });

  it('answers null for unknown jobs, malformed ids and another queue', async () => {
    expect(await jobs.status('test-progress', '00000000-0000-4000-8000-000000000000')).toBeNull();
    expect(await jobs.status('test-progress', "1' OR '1'='1")).toBeNull();
    const jobId = await jobs.send('test-queue-a', {});
    expect(await jobs.status('test-queue-b', jobId!)).toBeNull();
    expect((await jobs.status('test-queue-a', jobId!))?.state).toBe('created');
  });

  it('refuses a second worker for the same queue in one process', async () => {
    await jobs.work('test-double', async () => null);
    await expect(jobs.work('test-double', async () => null)).rejects.toThrow(/already registered/);
  });

  it('stops cleanly: waits for the running job, then takes no more work', async () => {
    const local = createJobs(t.ctx, { pollingIntervalSeconds: 0.5, retryDelaySeconds: 0 });
    await local.start();
    const started = gate();
    let finished = 0;
    await local.work('test-stop', async () => {
      started.open();
      await new Promise((resolve) => setTimeout(resolve, 300));
      finished += 1;
      return { ok: true };
    });
    const first = await local.send('test-stop', {});
    await started.opened;
    let stoppedEvent = false;
    local.boss.on('stopped', () => (stoppedEvent = true));
    await local.stop();
    expect(stoppedEvent).toBe(true);
    expect(finished).toBe(1);
    // pg-boss records the completion right after the handler returns, without awaiting it.
    await waitFor(() => jobs.status('test-stop', first!), (s) => s?.state === 'completed', 5000);

    const second = await jobs.send('test-stop', {});
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect((await jobs.status('test-stop', second!))?.state).toBe('created');
    expect(finished).toBe(1);

    if (t.ctx.database.kind === 'postgres') {
      // pg-boss's own pool is closed by stop(): once every instance of this file stops, no connection is left.
      const count = async () => {
        const { rows } = await t.ctx.database.executeSql(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'pluma-jobs' AND datname = current_database()`,
        );
        return Number(rows[0].n);
      };
      expect(await count()).toBeGreaterThan(0);
      await jobs.stop();
      await (t.ctx.services.jobs as PgBossJobs).stop();
      expect(await waitFor(count, (n) => n === 0, 5000)).toBe(0);
    }
  });
});
