// Mail: SMTP via nodemailer when SMTP_URL is set; otherwise no transport. Every message is kept in
// mail_outbox ('sent' | 'stored' | 'failed') and logged, so an operator without SMTP can still finish
// a password reset from the console or from GET /api/admin/outbox.
import { eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { AppContext, MailMessage, Mailer } from '../../context';
import { mailOutbox } from '../../db/schema';
import { consoleMailLog, type MailLog } from './log';

export type MailStatus = 'sent' | 'stored' | 'failed';

/** Thrown after the failure is recorded in the outbox, so callers can tell the user. */
export class MailDeliveryError extends Error {
  constructor(readonly mailId: number, cause: unknown) {
    super(`mail ${mailId} could not be delivered`, { cause });
  }
}

// Short timeouts: a request waiting on mail must not hang for nodemailer's default 2 minutes.
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

export interface PlumaMailer extends Mailer {
  /** Sends (or stores) and returns the outbox row id and its final status. */
  deliver(message: MailMessage): Promise<{ mailId: number; status: MailStatus }>;
  close(): void;
}

export function createMailer(ctx: AppContext, log: MailLog = consoleMailLog(ctx.env.LOG_LEVEL)): PlumaMailer {
  const transport = ctx.env.SMTP_URL ? nodemailer.createTransport({ url: ctx.env.SMTP_URL, ...SMTP_TIMEOUTS }) : null;

  async function deliver(message: MailMessage): Promise<{ mailId: number; status: MailStatus }> {
    const to = message.to.trim().toLowerCase();
    const [row] = await ctx.db
      .insert(mailOutbox)
      .values({ to, subject: message.subject, text: message.text, html: message.html ?? null, kind: message.kind, status: 'stored' })
      .returning({ mailId: mailOutbox.mailId });
    const entry = { mailId: row.mailId, kind: message.kind, to, subject: message.subject };

    if (!transport) {
      // No SMTP: the outbox is the delivery. The action link goes to the log for the operator.
      log.info({ ...entry, status: 'stored', ...(message.link ? { link: message.link } : {}) }, 'mail stored (no SMTP_URL configured)');
      return { mailId: row.mailId, status: 'stored' };
    }
    try {
      await transport.sendMail({ from: ctx.env.SMTP_FROM, to, subject: message.subject, text: message.text, html: message.html });
      await ctx.db.update(mailOutbox).set({ status: 'sent', sentAt: new Date() }).where(eq(mailOutbox.mailId, row.mailId));
      log.info({ ...entry, status: 'sent' }, 'mail sent');
      return { mailId: row.mailId, status: 'sent' };
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      await ctx.db.update(mailOutbox).set({ status: 'failed', error: reason.slice(0, 1000) }).where(eq(mailOutbox.mailId, row.mailId));
      log.error({ ...entry, status: 'failed', error: reason }, 'mail failed');
      throw new MailDeliveryError(row.mailId, err);
    }
  }

  return {
    deliver,
    async send(message) {
      await deliver(message);
    },
    close() {
      transport?.close();
    },
  };
}
