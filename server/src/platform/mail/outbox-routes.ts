// GET /api/admin/outbox?to=&limit= — the newest outbox rows, admins only. Without SMTP this is how an
// operator (and the browser journeys) read a reset link.
import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { text } from '@pluma/common/schema-kit';
import { z } from 'zod';
import { mailOutbox } from '../../db/schema';
import { requireStaff } from '../auth/guard';

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
    {
      onRequest: [app.authenticate, requireStaff('admin')],
      schema: {
        tags: ['admin'],
        security: [{ bearer: [] }],
        querystring: outboxQuery,
        response: { 200: z.object({ items: z.array(outboxMail) }) },
      },
    },
    async (request) => {
      const { to, limit } = request.query;
      const rows = await app.ctx.db
        .select()
        .from(mailOutbox)
        .where(to ? eq(mailOutbox.to, to) : undefined)
        .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.mailId))
        .limit(limit);
      return {
        items: rows.map((row) => ({
          mail_id: row.mailId,
          to: row.to,
          subject: row.subject,
          text: row.text,
          kind: row.kind,
          status: row.status,
          error: row.error,
          createdAt: row.createdAt.toISOString(),
          sentAt: row.sentAt?.toISOString() ?? null,
        })),
      };
    },
  );
}
