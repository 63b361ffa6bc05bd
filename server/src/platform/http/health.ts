import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';

export async function healthRoutes(app: FastifyInstance) {
  app.get('/health', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  /** Ready when the database answers and the migrations have been applied. */
  app.get('/ready', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await app.ctx.db.execute(sql`select 1 from app_config limit 1`);
      return { status: 'ready', database: app.ctx.database.kind };
    } catch (err) {
      app.log.warn({ err }, 'not ready');
      return reply.status(503).send({ status: 'not_ready' });
    }
  });
}
