// GET /api/invoices/{id}/pdf: the receipt of one of the customer's own invoices (another user's is a 404,
// as for GET /invoices/ — policy.ts ownInvoicesOf), in the user's language, with the business name of
// the app configuration. Rendering is bounded: a few receipts at a time, a short queue, then 503.
import type { Lang } from '@pluma/common/constants';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { invoices, products, purchases, users } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { getConfig } from '../../platform/appconfig/read';
import { notFound } from '../../platform/http/errors';
import { ownInvoicesOf } from './policy';
import { renderReceiptPdf, type ReceiptView } from './receipt-pdf';
import { bounded } from './receipt-queue';

interface OwnReceiptInput {
  ctx: AppContext;
  actor: Pick<Actor, 'user' | 'organization'>;
  invoiceId: number;
  lang: Lang;
}

export async function loadOwnReceipt({ ctx, actor, invoiceId, lang }: OwnReceiptInput): Promise<ReceiptView> {
  const [row] = await ctx.db
    .select({
      invoice: invoices,
      discountCode: purchases.discountCode,
      purchaseAmount: purchases.amount,
      productName: products.name,
      user: { name: users.name, lastName: users.lastName, email: users.email },
    })
    .from(invoices)
    .leftJoin(purchases, eq(purchases.purchaseId, invoices.purchaseId))
    .leftJoin(products, eq(products.productId, purchases.productId))
    .innerJoin(users, eq(users.userId, invoices.userId))
    .where(and(ownInvoicesOf(actor), eq(invoices.invoiceId, invoiceId)))
    .limit(1);
  if (!row) throw notFound();
  const { invoice } = row;
  const [businessName, businessEmail] = await Promise.all([getConfig(ctx, 'app_name'), getConfig(ctx, 'email')]);
  const discount = Math.max(0, Math.round((invoice.amount - invoice.totalPayment) * 100) / 100);
  return {
    lang,
    businessName: businessName.trim() || 'Pluma',
    businessEmail: businessEmail.trim() || null,
    invoiceNumber: invoice.invoiceId,
    orderId: invoice.orderId,
    date: invoice.createdAt,
    customerName: [row.user.name, row.user.lastName].filter(Boolean).join(' '),
    customerEmail: row.user.email,
    productName: row.productName,
    amount: invoice.amount,
    discount,
    discountCode: discount > 0 ? row.discountCode : null,
    total: invoice.totalPayment,
    status: invoice.status,
  };
}

export async function ownReceiptPdf({ ctx, actor, invoiceId, lang }: OwnReceiptInput): Promise<Buffer> {
  const view = await loadOwnReceipt({ ctx, actor, invoiceId, lang });
  return bounded(() => renderReceiptPdf(view));
}
