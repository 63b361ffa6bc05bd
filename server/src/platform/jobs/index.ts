// Background jobs on pg-boss v10 (DESIGN.md §2): on PostgreSQL through its own pool, on PGlite through the
// database's executeSql adapter. Progress lives in job_progress: pg-boss writes a job's data and output only
// when it is sent and when it ends, so the percent of a running job (training, sync... up to 15 minutes)
// needs a row of its own that any node can read and that survives a reload or a restart.
import { and, eq, lt } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import type { AppContext, JobProgress, Jobs } from '../../context';
import { jobProgress } from '../../db/schema';

/** Jobs may run up to 15 minutes; one more minute before pg-boss declares them expired. */
export const JOB_EXPIRE_SECONDS = 15 * 60 + 60;
export const DEFAULT_RETRY_LIMIT = 2;
/** Progress rows are pruned with pg-boss's own archive (deleteAfterDays). */
const PROGRESS_KEEP_DAYS = 7;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface JobsOptions {
  /** How often an idle worker looks for work (pg-boss minimum 0.5). A send on this node wakes it at once. */
  pollingIntervalSeconds?: number;
  /** Delay before a failed job is tried again, doubled each time when retryBackoff is on. */
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
  /** How often pg-boss does its housekeeping (expire, archive) and we prune old progress rows. */
  maintenanceIntervalSeconds?: number;
}

export interface JobsLogger {
  error(obj: unknown, msg?: string): void;
}

export class PgBossJobs implements Jobs {
  readonly boss: PgBoss;
  /** Replaced by the app's logger once the app exists (boot.ts). */
  logger: JobsLogger = { error: (obj, msg) => console.error(msg ?? 'job queue error', obj) };
  private readonly queues = new Map<string, Promise<void>>();
  private readonly workers = new Map<string, string>();
  private readonly pollingIntervalSeconds: number;
  private readonly retryDelay: number;
  private readonly retryBackoff: boolean;

  constructor(
    private readonly ctx: AppContext,
    options: JobsOptions = {},
  ) {
    this.pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;
    this.retryDelay = options.retryDelaySeconds ?? 30;
    this.retryBackoff = options.retryBackoff ?? true;
    const common = {
      // Cron schedules are not used; without them pg-boss runs no clock or cron polling of its own.
      schedule: false,
      supervise: true,
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 120,
      deleteAfterDays: PROGRESS_KEEP_DAYS,
    } satisfies PgBoss.ConstructorOptions;
    const { database } = ctx;
    this.boss =
      database.kind === 'postgres' && database.url
        ? new PgBoss({ ...common, connectionString: database.url, application_name: 'pluma-jobs', max: 4 })
        : new PgBoss({ ...common, db: { executeSql: (text, values) => database.executeSql(text, values) } });
    this.boss.on('error', (err) => this.logger.error({ err }, 'job queue error'));
    this.boss.on('maintenance', () => {
      this.pruneProgress().catch((err) => this.logger.error({ err }, 'job progress pruning failed'));
    });
  }

  async start(): Promise<void> {
    await this.boss.start();
  }

  /** Waits for running handlers (up to 30 s), then fails what is left so another node retries it. */
  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, wait: true, timeout: 30_000 });
    this.workers.clear();
  }

  /** pg-boss v10 needs a queue before send or work; created once per process, idempotent in the database. */
  private ensureQueue(queue: string): Promise<void> {
    let created = this.queues.get(queue);
    if (!created) {
      created = this.boss.createQueue(queue, {
        name: queue,
        retryLimit: DEFAULT_RETRY_LIMIT,
        retryDelay: this.retryDelay,
        retryBackoff: this.retryBackoff,
        expireInSeconds: JOB_EXPIRE_SECONDS,
      });
      created.catch(() => this.queues.delete(queue));
      this.queues.set(queue, created);
    }
    return created;
  }

  /** Queues a job. With a singletonKey, returns null while a job with that key is waiting or running. */
  async send(queue: string, data: Record<string, unknown>, options: { singletonKey?: string; retryLimit?: number } = {}) {
    await this.ensureQueue(queue);
    // pg-boss enforces singleton keys only on special queue policies (which would also make keyless sends
    // exclusive), so the check is ours: it covers repeated clicks, not two nodes sending in the same instant.
    if (options.singletonKey && (await this.hasUnfinishedJob(queue, options.singletonKey))) return null;
    const id = await this.boss.send(queue, data, {
      singletonKey: options.singletonKey,
      retryLimit: options.retryLimit ?? DEFAULT_RETRY_LIMIT,
      retryDelay: this.retryDelay,
      retryBackoff: this.retryBackoff,
      expireInSeconds: JOB_EXPIRE_SECONDS,
    });
    // A worker of this process starts on it now instead of at its next poll.
    const workerId = this.workers.get(queue);
    if (id && workerId) this.boss.notifyWorker(workerId);
    return id;
  }

  async work(
    queue: string,
    handler: (data: Record<string, unknown>, progress: JobProgress, jobId: string) => Promise<unknown>,
  ): Promise<void> {
    if (this.workers.has(queue)) throw new Error(`a worker for queue ${queue} is already registered`);
    await this.ensureQueue(queue);
    const workerId = await this.boss.work<Record<string, unknown>>(
      queue,
      { batchSize: 1, pollingIntervalSeconds: this.pollingIntervalSeconds },
      async ([job]) => {
        const progress: JobProgress = (percent, note) => this.saveProgress(queue, job.id, percent, note);
        // Each attempt reports from zero: a retry must not show the percent of the attempt that failed.
        await this.saveProgress(queue, job.id, 0, null);
        const output = await handler(job.data ?? {}, progress, job.id);
        await this.saveProgress(queue, job.id, 100);
        return output;
      },
    );
    this.workers.set(queue, workerId);
  }

  async status(queue: string, jobId: string) {
    if (!UUID_PATTERN.test(jobId)) return null;
    const job = await this.boss.getJobById(queue, jobId, { includeArchive: true });
    if (!job) return null;
    const [row] = await this.ctx.db
      .select()
      .from(jobProgress)
      .where(and(eq(jobProgress.jobId, jobId), eq(jobProgress.queue, queue)))
      .limit(1);
    return {
      state: job.state,
      progress: row?.percent ?? (job.state === 'completed' ? 100 : 0),
      note: row?.note ?? null,
      output: publicOutput(job.state, job.output),
    };
  }

  private async hasUnfinishedJob(queue: string, singletonKey: string): Promise<boolean> {
    const { rows } = await this.ctx.database.executeSql(
      `SELECT 1 FROM pgboss.job WHERE name = $1 AND singleton_key = $2 AND state < 'completed' LIMIT 1`,
      [queue, singletonKey],
    );
    return rows.length > 0;
  }

  /** Stores percent (0–100) and, when given, the note; last write wins. */
  private async saveProgress(queue: string, jobId: string, percent: number, note?: string | null): Promise<void> {
    const value = Math.max(0, Math.min(100, Math.round(Number.isFinite(percent) ? percent : 0)));
    const now = new Date();
    const noteChange = note === undefined ? {} : { note };
    await this.ctx.db
      .insert(jobProgress)
      .values({ jobId, queue, percent: value, note: note ?? null, updatedAt: now })
      .onConflictDoUpdate({ target: jobProgress.jobId, set: { percent: value, updatedAt: now, ...noteChange } });
  }

  private async pruneProgress(): Promise<void> {
    const before = new Date(Date.now() - PROGRESS_KEEP_DAYS * 24 * 60 * 60 * 1000);
    await this.ctx.db.delete(jobProgress).where(lt(jobProgress.updatedAt, before));
  }
}

/** A failed job's output is the serialized error; its stack stays on the server. */
function publicOutput(state: string, output: unknown): unknown {
  if ((state === 'failed' || state === 'retry') && output && typeof output === 'object' && 'message' in output) {
    return { message: String((output as { message: unknown }).message) };
  }
  return output ?? null;
}

export function createJobs(ctx: AppContext, options: JobsOptions = {}): PgBossJobs {
  return new PgBossJobs(ctx, options);
}

/** Creates and starts the job service (boot.ts). */
export async function startJobs(ctx: AppContext, options: JobsOptions = {}): Promise<PgBossJobs> {
  const jobs = createJobs(ctx, options);
  await jobs.start();
  return jobs;
}
