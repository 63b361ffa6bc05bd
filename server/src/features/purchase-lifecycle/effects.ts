// After a fulfilment has committed: cached actors are dropped (access and words show at once), the
// product's lead-connector webhook is called through the outbound guard (best effort), a receipt goes out
// for each payment, a plan switched away from is cancelled at its provider (Stripe or PayPal), and a
// failed renewal asks for a new card, and a payment that arrived over a limit is refunded at its provider
// (providers.ts) — mails through the outbox in the customer's language. The effects come only from the
// transaction that made the change (apply.ts, exactly once per event), so a redelivered event sends nothing again.
// None of these decides the outcome: failures are logged.
import { LANGUAGES, type Lang } from '@pluma/common/constants';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { users } from '../../db/schema';
import { getConfig } from '../../platform/appconfig/read';
import { invalidateUser } from '../../platform/auth/invalidation';
import { cardUpdateMail, receiptMail } from '../../platform/mail/templates';
import { notifyWebhook } from '../../platform/outbound/webhook';
import { publicBaseUrl } from '../../platform/http/public-url';
import { cancelSwitchedAwaySubscription } from './plan-switch';
import { refundAtProvider } from './refunds';
import type { Log } from '../../platform/log';
import type { Effect } from './types';

export type EffectsLog = Log;

export { receiptMail };

/** Runs the effects; resolves when all are done (tests await it), never rejects. */
export async function runEffects(ctx: AppContext, log: EffectsLog, effects: Effect[]): Promise<void> {
  for (const userId of new Set(effects.map((e) => e.purchase.userId))) invalidateUser(userId);
  const tasks: Promise<void>[] = [];
  for (const effect of effects) {
    if (effect.kind === 'changed') continue;
    tasks.push(
      (async () => {
        if (effect.kind === 'superseded') {
          // Proration is left to the provider; a failure leaves the cancel due for the sweep (plan-switch.ts).
          if (effect.subscriptionId) await cancelSwitchedAwaySubscription(ctx, effect.subscriptionId);
          return;
        }
        if (effect.kind === 'refund') {
          // Idempotent per payment at the provider; a failure leaves the refund due for the sweep (refunds.ts).
          if (effect.provider && effect.orderId) {
            await refundAtProvider(ctx, effect.provider, {
              paymentId: effect.orderId,
              purchaseId: effect.purchase.purchaseId,
              organizationId: effect.purchase.organizationId,
              subscription: effect.purchase.subscriptionId != null,
            });
            log.info({ purchase_id: effect.purchase.purchaseId, payment: effect.orderId, reason: effect.purchase.failureReason }, 'payment over a limit refunded');
          }
          return;
        }
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
        if (!ctx.services.mail) return;
        const lang: Lang = (LANGUAGES as readonly string[]).includes(user.lang) ? (user.lang as Lang) : 'en';
        const appName = (await getConfig(ctx, 'app_name')) || 'Pluma';
        const product = effect.product?.name ?? '';
        if (effect.kind === 'card_update') {
          const url = `${publicBaseUrl(ctx)}/billing`;
          await ctx.services.mail.send(cardUpdateMail({ to: user.email, lang, name: user.name, appName, product, total: effect.amount, url }));
        } else if (effect.amount > 0) {
          // activated or renewed: each payment's receipt.
          await ctx.services.mail.send(receiptMail({ to: user.email, lang, name: user.name, appName, product, order: String(effect.purchase.purchaseId), total: effect.amount }));
        }
      })().catch((err: unknown) => log.error({ err, purchase_id: effect.purchase.purchaseId, kind: effect.kind }, 'purchase follow-up failed')),
    );
  }
  await Promise.all(tasks);
}
