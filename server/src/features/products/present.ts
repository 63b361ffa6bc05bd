// The JSON of a product (spec part 1 §3 Product): exactly these fields leave the server, plus the
// viewer's abilities (DESIGN.md §7). Customers get the pricing fields; those who manage the product
// (policy.ts can 'update') get every field, for the product form.
import type { AvailableProduct, ManagedProduct } from '@pluma/common/products';
import { productAuditFields, productPricingFields } from './audit-fields';
import { productPolicy, type ProductRow, type ProductViewer } from './policy';

export function presentProduct(viewer: ProductViewer, p: ProductRow): AvailableProduct {
  return { ...productPricingFields(p), abilities: productPolicy.abilities(viewer, p) };
}

/** Every field, for the people who manage the product (GET /products, POST and PUT /products). */
export function presentManagedProduct(viewer: ProductViewer, p: ProductRow): ManagedProduct {
  return {
    ...productAuditFields(p),
    abilities: productPolicy.abilities(viewer, p),
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

/** GET /products/{id}: every field when the viewer may update the product, the customer's view otherwise. */
export function presentProductFor(viewer: ProductViewer, p: ProductRow): AvailableProduct | ManagedProduct {
  return productPolicy.can(viewer, 'update', p) ? presentManagedProduct(viewer, p) : presentProduct(viewer, p);
}
