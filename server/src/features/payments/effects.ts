// After a fulfilment has committed: cached actors are dropped (access and words show at once), the
// product's lead-connector webhook is called through the outbound guard (best effort), and a receipt goes
// out through the mail outbox in the customer's language. None of these decides the outcome: failures are logged.
import { LANGUAGES, type Lang } from '@pluma/common/constants';
import { translate } from '@pluma/common/messages';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext, MailMessage } from '../../context';
import { users } from '../../db/schema';
import { getConfig } from '../../platform/appconfig/read';
import { invalidateUser } from '../../platform/auth/invalidation';
import { notifyWebhook } from '../../platform/outbound/webhook';
import type { Effect } from './fulfil';

export type EffectsLog = Pick<FastifyBaseLogger, 'warn' | 'info' | 'error'>;

export function receiptMail(input: { to: string; lang: Lang; name: string; appName: string; product: string; order: string; total: number }): MailMessage {
  const params = { app: input.appName, name: input.name, product: input.product, order: input.order, total: input.total.toFixed(2) };
  return {
    to: input.to,
    kind: 'receipt',
    subject: translate(input.lang, 'mail_receipt_subject', params),
    text: translate(input.lang, 'mail_receipt_text', params),
  };
}

/** Runs the effects; resolves when all are done (tests await it), never rejects. */
export async function runEffects(ctx: AppContext, log: EffectsLog, effects: Effect[]): Promise<void> {
  for (const userId of new Set(effects.map((e) => e.purchase.userId))) invalidateUser(userId);
  const tasks: Promise<void>[] = [];
  for (const effect of effects) {
    if (effect.kind === 'changed') continue;
    tasks.push(
      (async () => {
        const [user] = await ctx.db.select().from(users).where(eq(users.userId, effect.purchase.userId)).limit(1);
        if (!user) return;
        if (effect.kind === 'activated' && effect.product?.webhookUrl) {
          await notifyWebhook(ctx, log, 'purchase', effect.product.webhookUrl, {
            product_sku: effect.product.productSku,
            product_id: effect.product.productId,
            purchase_id: effect.purchase.purchaseId,
            status: effect.purchase.status,
            amount: effect.amount,
            email: user.email,
            name: user.name,
            last_name: user.lastName,
            phone: user.phone,
          });
        }
        if (effect.amount > 0 && ctx.services.mail) {
          const lang: Lang = (LANGUAGES as readonly string[]).includes(user.lang) ? (user.lang as Lang) : 'en';
          const appName = (await getConfig(ctx, 'app_name')) || 'Pluma';
          await ctx.services.mail.send(
            receiptMail({ to: user.email, lang, name: user.name, appName, product: effect.product?.name ?? '', order: String(effect.purchase.purchaseId), total: effect.amount }),
          );
        }
      })().catch((err: unknown) => log.error({ err, purchase_id: effect.purchase.purchaseId }, 'purchase follow-up failed')),
    );
  }
  await Promise.all(tasks);
}
