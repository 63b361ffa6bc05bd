// Who may see and do what with a product (DESIGN.md §7). Products are the operator's (organization_id
// null) or an organization's own (spec part 1 §3 Product "organization_id"; part 2 §2 "Organization tabs:
// settings, users, products, analytics" and the pages /organization/admin/products). A product outside
// the request's context is a 404, never a 403.
//
// - Personal, and visitors who are not signed in: the operator's products on sale. Staff also see the ones
//   taken off sale (spec part 1 §6: admins "manage products"; managers pick products when giving access).
// - Inside an organization: that organization's products on sale, and all of them for its Admin (spec
//   part 2 §6: a Member "has no admin icons and no organization tabs"; "Organization admin menu for
//   Admin"). The operator's products are not the organization's to sell, so they are not listed there.
import { ErrorIds } from '@pluma/common/errors';
import { PRODUCT_ACTIONS, type ProductAction } from '@pluma/common/products';
import { and, eq, isNull, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { products } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { AppError } from '../../platform/http/errors';
import { definePolicy, defineRules } from '../../platform/policy/define-policy';

/** spec part 1 §8 "Product not found (404)": a message saying the package was not found. */
export const productNotFound = () => new AppError(404, ErrorIds.notFound, 'product_not_found');

export type ProductRow = typeof products.$inferSelect;

/** Who is asking: a signed-in actor, or null for a visitor who is not signed in (Personal). */
export type ProductViewer = Pick<Actor, 'staffRole' | 'organization'> | null;

const onSale = eq(products.available, true);

/** The scope of every product query: what the viewer may see in the context of this request. */
export function visibleTo(viewer: ProductViewer): SQL {
  const organization = viewer?.organization;
  if (organization) {
    const own = eq(products.organizationId, organization.organizationId);
    return organization.role === 'admin' ? own : (and(own, onSale) as SQL);
  }
  const operators = isNull(products.organizationId);
  return viewer?.staffRole ? operators : (and(operators, onSale) as SQL);
}

/** The same scope for one row (visibleTo in code). */
function sees(viewer: ProductViewer, row: Pick<ProductRow, 'organizationId' | 'available'>): boolean {
  const organization = viewer?.organization;
  if (organization) return row.organizationId === organization.organizationId && (row.available || organization.role === 'admin');
  return row.organizationId === null && (row.available || viewer?.staffRole != null);
}

/**
 * Who manages the products of the request's context (GET /products, POST and PUT /products): a staff admin in
 * Personal (the operator's), the organization's Admin inside it (a staff admin acts there as its Admin).
 */
export function managesProducts(viewer: ProductViewer): boolean {
  const organization = viewer?.organization;
  return organization ? organization.role === 'admin' : viewer?.staffRole === 'admin';
}

/**
 * Who reads the full product list of the request's context (GET /products): those who manage it, and staff
 * managers in Personal (Pluma's staff rights, docs/decisions.md: managers read products, change none).
 */
export function readsProductList(viewer: ProductViewer): boolean {
  if (managesProducts(viewer)) return true;
  return !viewer?.organization && viewer?.staffRole === 'manager';
}

/** Who manages a product: a staff admin in Personal for the operator's, the organization's Admin for its own. */
function manages(viewer: ProductViewer, row: Pick<ProductRow, 'organizationId'>): boolean {
  const organization = viewer?.organization;
  if (organization) return row.organizationId === organization.organizationId && organization.role === 'admin';
  return row.organizationId === null && viewer?.staffRole === 'admin';
}

/** What the viewer may do with one product (`productPolicy`'s `can`). */
function can(viewer: ProductViewer, action: ProductAction, row: Pick<ProductRow, 'organizationId' | 'available'>): boolean {
  if (!sees(viewer, row)) return false;
  switch (action) {
    case 'read':
      return true;
    // Visitors may buy too: checkout signs them in or up first (spec part 1 §2 "Checkout").
    case 'buy':
      return row.available;
    case 'update':
    case 'delete':
      return manages(viewer, row);
  }
}

/**
 * A product outside the viewer's context, or one they may not act on, is "Product not found" (spec part 1
 * §8), never a 403. Visitors who are not signed in are viewers too (null).
 */
export const productPolicy = definePolicy<ProductAction, ProductRow, ProductViewer>({
  actions: PRODUCT_ACTIONS,
  table: products,
  id: products.productId,
  visibleTo,
  can,
  refuseWith: 'notFound',
  notFound: productNotFound,
});

/** The product if the viewer may take `action` on it (read by default), else "Product not found". */
export function requireProduct(db: Db | Tx, viewer: ProductViewer, productId: number, action: ProductAction = 'read'): Promise<ProductRow> {
  return productPolicy.require(db, viewer, productId, action);
}

/** The catalogue of the request's context as a whole: who lists every product and who adds or changes them. */
export type CatalogAction = 'list' | 'manage';

/** 403 for anyone else (the routes' answer since the start: the list exists, it is not theirs to manage). */
export const catalogRules = defineRules<CatalogAction, null, ProductViewer>({
  actions: ['list', 'manage'],
  can: (viewer, action) => (action === 'manage' ? managesProducts(viewer) : readsProductList(viewer)),
});
