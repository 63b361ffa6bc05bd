// POST /purchases/test (spec part 1 §7): sends the product's webhook_url (its lead-connector) a sample
// purchase, as a paid purchase would (purchase-lifecycle/effects.ts), through the outbound guard, and returns what it
// answered so the admin sees whether the integration works. Nothing is stored.
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { products, users } from '../../db/schema';
import { AppError, notFound } from '../../platform/http/errors';
import { safeFetch } from '../../platform/outbound/safe-fetch';

const BODY_SHOWN = 2000;

export async function sendTestPurchase({ ctx, input }: { ctx: AppContext; input: { product_id: number; user_id?: number; email?: string } }) {
  const [product] = await ctx.db.select().from(products).where(eq(products.productId, input.product_id)).limit(1);
  if (!product) throw notFound();
  if (!product.webhookUrl) throw new AppError(409, 'product_webhook_missing', 'product_webhook_missing');
  const [user] = input.user_id == null ? [] : await ctx.db.select().from(users).where(eq(users.userId, input.user_id)).limit(1);
  if (input.user_id != null && !user) throw notFound();
  const sent = {
    event: 'purchase',
    test: true,
    product_sku: product.productSku,
    product_id: product.productId,
    purchase_id: 0,
    status: product.isSubscription ? 'active' : 'completed',
    amount: product.salePrice ?? product.price,
    email: input.email ?? user?.email ?? 'test@example.com',
    name: user?.name ?? 'Test',
    last_name: user?.lastName ?? 'Purchase',
    phone: user?.phone ?? null,
  };
  const response = await safeFetch(ctx, product.webhookUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(sent),
    maxResponseBytes: 64 * 1024,
  });
  const body = (await response.text()).slice(0, BODY_SHOWN);
  return { url: product.webhookUrl, status: response.status, ok: response.ok, body, sent };
}
