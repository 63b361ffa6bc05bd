// GET /api/admin/outbox?to=&limit= — the newest outbox rows, admins only. Without SMTP this is how an
// operator (and the browser journeys) read a reset link.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { text } from '@pluma/common/schema-kit';
import { z } from 'zod';
import { signedIn } from '../auth/guard';
import { listOutbox, presentOutboxMail } from './outbox';

export const outboxQuery = z.object({
  to: text().trim().toLowerCase().max(320).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const outboxMail = z.object({
  mail_id: z.number(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  kind: z.string(),
  status: z.string(),
  error: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});

export async function outboxRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/outbox',
    signedIn(app, { tags: ['admin'], querystring: outboxQuery, response: { 200: z.object({ items: z.array(outboxMail) }) } }, { staff: 'admin' }),
    async (request) => {
      const rows = await listOutbox({ db: app.ctx.db, to: request.query.to, limit: request.query.limit });
      return { items: rows.map(presentOutboxMail) };
    },
  );
}
