// A customer's own purchases and invoices (spec part 1 §7 GET /purchases, GET /purchases/{id} — polled every
// 2 s by the thank-you page — and GET /invoices/), newest first, scoped by policy.ts. The list leaves out
// expired attempts (never paid; issue 28: no phantom "pending" rows) and shows failed ones with their
// failure_reason; one purchase by id is shown whatever its status (the thank-you page polls it).
import { and, desc, eq, ne } from 'drizzle-orm';
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
    .where(and(ownPurchasesOf(actor), ne(purchases.status, 'expired')))
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
