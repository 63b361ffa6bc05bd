// A customer's own purchases and invoices (spec part 1 §7 GET /purchases, GET /purchases/{id} — polled every
// 2 s by the thank-you page — and GET /invoices/), newest first, scoped by policy.ts.
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { invoices, products, purchases } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { notFound } from '../../platform/http/errors';
import { ownInvoicesOf, ownPurchasesOf } from './policy';

type Paging = { page: number; limit: number };

export async function listOwnPurchases({ db, actor, paging }: { db: Db; actor: Actor; paging: Paging }) {
  return db
    .select({ purchase: purchases, productName: products.name })
    .from(purchases)
    .leftJoin(products, eq(products.productId, purchases.productId))
    .where(ownPurchasesOf(actor))
    .orderBy(desc(purchases.createdAt), desc(purchases.purchaseId))
    .limit(paging.limit)
    .offset((paging.page - 1) * paging.limit);
}

export async function getOwnPurchase({ db, actor, purchaseId }: { db: Db; actor: Actor; purchaseId: number }) {
  const [row] = await db
    .select({ purchase: purchases, productName: products.name })
    .from(purchases)
    .leftJoin(products, eq(products.productId, purchases.productId))
    .where(and(ownPurchasesOf(actor), eq(purchases.purchaseId, purchaseId)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

export async function listOwnInvoices({ db, actor, paging }: { db: Db; actor: Actor; paging: Paging }) {
  const rows = await db
    .select({ invoice: invoices })
    .from(invoices)
    .leftJoin(purchases, eq(purchases.purchaseId, invoices.purchaseId))
    .where(ownInvoicesOf(actor))
    .orderBy(desc(invoices.createdAt), desc(invoices.invoiceId))
    .limit(paging.limit)
    .offset((paging.page - 1) * paging.limit);
  return rows.map((r) => r.invoice);
}
