// Staff create and edit invoices (spec part 1 §3 Invoice, §4 "A new invoice defaults to status pending,
// amount 0, no purchase, no user", §7 POST/PUT /invoices/admin). A purchase named must exist (404); an
// unknown user is the database's refusal (400 naming user_id, platform/http/database-errors.ts). An
// invoice of a purchase belongs to that purchase's customer: a user given is taken from the purchase
// when missing, and another customer is refused (400).
import type { AdminCreateInvoiceRequest, AdminUpdateInvoiceRequest } from '@pluma/common/admin-purchases';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { invoices, purchases } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { badRequest, notFound } from '../../platform/http/errors';
import { adminRecordRules } from './policy';

type InvoiceRow = typeof invoices.$inferSelect;

/** The purchase an invoice names, and the customer the invoice then belongs to. */
async function ownerThroughPurchase(tx: Tx, purchaseId: number | null, userId: number | null): Promise<{ userId: number | null; purchase: typeof purchases.$inferSelect | null }> {
  if (purchaseId == null) return { userId, purchase: null };
  const [purchase] = await tx.select().from(purchases).where(eq(purchases.purchaseId, purchaseId)).limit(1);
  if (!purchase) throw notFound();
  if (userId != null && userId !== purchase.userId) throw badRequest('invoice_purchase_user_mismatch', { user_id: 'invoice_purchase_user_mismatch' });
  return { userId: purchase.userId, purchase };
}

const toDate = (day: string | null | undefined) => (day == null ? day : new Date(`${day}T00:00:00.000Z`));

export async function createInvoiceAsAdmin({ ctx, actor, input }: { ctx: AppContext; actor: Actor; input: AdminCreateInvoiceRequest }): Promise<InvoiceRow> {
  adminRecordRules.authorize(actor, 'edit', null);
  return ctx.db.transaction(async (tx) => {
    const { userId, purchase } = await ownerThroughPurchase(tx, input.purchase_id, input.user_id);
    const [row] = await tx
      .insert(invoices)
      .values({
        purchaseId: input.purchase_id,
        userId,
        status: input.status,
        amount: input.amount,
        totalPayment: input.total_payment ?? input.amount,
        paymentMethodId: input.payment_method_id ?? purchase?.paymentMethodId ?? null,
        orderId: input.order_id ?? null,
        expirationDate: toDate(input.expiration_date) ?? null,
        subscriptionId: purchase?.subscriptionId ?? null,
        subscriptionInterval: purchase?.subscriptionInterval ?? null,
        subscriptionPeriod: purchase?.subscriptionPeriod ?? null,
        freeTrialLength: purchase?.freeTrialLength ?? null,
      })
      .returning();
    return row;
  });
}

/** Applies an admin's edit (only the fields sent); returns the invoice as it was and as it is now. */
export async function updateInvoiceAsAdmin({ ctx, actor, input, now = new Date() }: { ctx: AppContext; actor: Actor; input: AdminUpdateInvoiceRequest; now?: Date }) {
  adminRecordRules.authorize(actor, 'edit', null);
  return ctx.db.transaction(async (tx) => {
    const [before] = await tx.select().from(invoices).where(eq(invoices.invoiceId, input.invoice_id)).for('update');
    if (!before) throw notFound();
    const purchaseId = input.purchase_id === undefined ? before.purchaseId : input.purchase_id;
    const requestedUser = input.user_id === undefined ? (input.purchase_id === undefined ? before.userId : null) : input.user_id;
    const { userId } = await ownerThroughPurchase(tx, purchaseId, requestedUser);
    const [after] = await tx
      .update(invoices)
      .set({
        purchaseId,
        userId,
        ...(input.status !== undefined ? { status: input.status } : {}),
        ...(input.amount !== undefined ? { amount: input.amount } : {}),
        ...(input.total_payment !== undefined ? { totalPayment: input.total_payment } : {}),
        ...(input.payment_method_id !== undefined ? { paymentMethodId: input.payment_method_id } : {}),
        ...(input.order_id !== undefined ? { orderId: input.order_id } : {}),
        ...(input.expiration_date !== undefined ? { expirationDate: toDate(input.expiration_date) } : {}),
        updatedAt: now,
      })
      .where(eq(invoices.invoiceId, before.invoiceId))
      .returning();
    return { before, after };
  });
}
