// Text messages (issue 33 item 1: phone sign-in codes). With Twilio's account SID, auth token and sender
// number in the app settings, messages go through Twilio's official SDK; without them they are only kept in
// the SMS outbox (GET /api/admin/sms-outbox), as mail is without SMTP. Every message gets an outbox row
// ('sent' | 'stored' | 'failed'). TWILIO_API_URL points the SDK at another server (the SMS emulator in
// tests and the offline demo). Settings are read per message, so a change in /admin/settings applies at once.
import { eq } from 'drizzle-orm';
import type { AppContext, SmsMessage, SmsSender } from '../../context';
import { smsOutbox } from '../../db/schema';
import { getConfig } from '../appconfig/read';
import { consoleMailLog, type MailLog } from '../mail/log';
import { twilioClient } from './twilio';

export type { SmsMessage, SmsSender };

/** Thrown after the failure is recorded in the outbox, so callers can tell the user. */
export class SmsDeliveryError extends Error {
  constructor(readonly smsId: number, cause: unknown) {
    super(`text message ${smsId} could not be delivered`, { cause });
  }
}

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  from: string;
}

/** Twilio's settings when all three are set, else null (messages are then only stored). */
export async function twilioSettings(ctx: AppContext): Promise<TwilioSettings | null> {
  const [accountSid, authToken, from] = await Promise.all([
    getConfig(ctx, 'twilio_account_sid'),
    getConfig(ctx, 'twilio_auth_token'),
    getConfig(ctx, 'twilio_from_number'),
  ]);
  if (!accountSid.trim() || !authToken.trim() || !from.trim()) return null;
  return { accountSid: accountSid.trim(), authToken: authToken.trim(), from: from.trim() };
}

export function createSmsSender(ctx: AppContext, log: MailLog = consoleMailLog(ctx.env.LOG_LEVEL)): SmsSender {
  return {
    async send(message) {
      const [row] = await ctx.db
        .insert(smsOutbox)
        .values({ to: message.to, text: message.text, kind: message.kind, status: 'stored' })
        .returning({ smsId: smsOutbox.smsId });
      const entry = { component: 'sms', smsId: row.smsId, kind: message.kind, to: message.to };
      const settings = await twilioSettings(ctx);
      if (!settings) {
        // No provider: the outbox is the delivery. In development the code goes to the console too.
        const shown = ctx.env.NODE_ENV === 'development' && message.code ? { code: message.code } : {};
        log.info({ ...entry, status: 'stored', ...shown }, 'text message stored (no SMS provider configured)');
        return { smsId: row.smsId, status: 'stored' };
      }
      try {
        const sent = await (await twilioClient(settings, ctx.env.TWILIO_API_URL)).messages.create({ to: message.to, from: settings.from, body: message.text });
        await ctx.db
          .update(smsOutbox)
          .set({ status: 'sent', provider: 'twilio', providerMessageId: sent.sid, sentAt: new Date() })
          .where(eq(smsOutbox.smsId, row.smsId));
        log.info({ ...entry, status: 'sent', sid: sent.sid }, 'text message sent');
        return { smsId: row.smsId, status: 'sent' };
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        await ctx.db.update(smsOutbox).set({ status: 'failed', provider: 'twilio', error: reason.slice(0, 1000) }).where(eq(smsOutbox.smsId, row.smsId));
        log.error({ ...entry, status: 'failed', error: reason }, 'text message failed');
        throw new SmsDeliveryError(row.smsId, err);
      }
    },
  };
}
