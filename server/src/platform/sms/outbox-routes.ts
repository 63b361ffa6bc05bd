// GET /api/admin/sms-outbox?to=&limit= — the newest text messages, staff admins only. Without an SMS
// provider this is how an operator (and the browser journeys) read a phone sign-in code.
import { smsOutboxItem } from '@pluma/common/phone-sign-in';
import { text } from '@pluma/common/schema-kit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedIn } from '../auth/guard';
import { listSmsOutbox, presentSms } from './outbox';

export const smsOutboxQuery = z.object({
  /** The number as the message was addressed (E.164, e.g. +525551234567). */
  to: text().trim().max(40).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export async function smsOutboxRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/sms-outbox',
    signedIn(app, { tags: ['admin'], querystring: smsOutboxQuery, response: { 200: z.object({ items: z.array(smsOutboxItem) }) } }, { staff: 'admin' }),
    async (request) => {
      const rows = await listSmsOutbox({ db: app.ctx.db, to: request.query.to, limit: request.query.limit });
      return { items: rows.map(presentSms) };
    },
  );
}
