// The lifecycle has no HTTP routes of its own; this plugin only runs its background sweep (abandoned
// attempts expire: abandoned-attempts.ts) for as long as the app runs.
import type { FastifyInstance } from 'fastify';
import { startAbandonedAttemptsSweep } from './abandoned-attempts';

export async function purchaseLifecycleJobs(app: FastifyInstance) {
  const stop = startAbandonedAttemptsSweep(app.ctx, app.log);
  app.addHook('preClose', async () => stop());
}
