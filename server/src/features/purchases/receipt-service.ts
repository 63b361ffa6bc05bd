// GET /api/invoices/{id}/pdf: the receipt of one of the customer's own invoices (another user's is a 404,
// as for GET /invoices/ — policy.ts ownInvoicesOf), in the user's language, with the business name of
// the app configuration. Rendering is bounded: a few receipts at a time, a short queue, then 503.
import type { Lang } from '@pluma/common/constants';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { invoices, products, purchases, users } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { getConfig } from '../../platform/appconfig/read';
import { AppError, notFound } from '../../platform/http/errors';
import { ownInvoicesOf } from './policy';
import { renderReceiptPdf, type ReceiptView } from './receipt-pdf';

export const RECEIPT_LIMITS = { concurrent: 2, queued: 16 };

/** 503 when more receipts wait than the queue holds (nothing failed: try again in a moment). */
export const receiptBusy = () => new AppError(503, 'receipt_busy', 'receipt_busy');

let running = 0;
const waiting: (() => void)[] = [];

/** Runs `render` when one of RECEIPT_LIMITS.concurrent slots is free; refuses beyond the queue. */
export async function bounded<T>(render: () => Promise<T>): Promise<T> {
  if (running >= RECEIPT_LIMITS.concurrent) {
    if (waiting.length >= RECEIPT_LIMITS.queued) throw receiptBusy();
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else {
    running++;
  }
  try {
    return await render();
  } finally {
    // The slot passes straight to the next waiter, or is freed.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

export async function loadOwnReceipt({ ctx, actor, invoiceId, lang }: { ctx: AppContext; actor: Pick<Actor, 'user' | 'organization'>; invoiceId: number; lang: Lang }): Promise<ReceiptView> {
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

export async function ownReceiptPdf(input: Parameters<typeof loadOwnReceipt>[0]): Promise<Buffer> {
  const view = await loadOwnReceipt(input);
  return bounded(() => renderReceiptPdf(view));
}
