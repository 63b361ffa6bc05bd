// Whose products the product screens manage (spec part 1 §2 /admin/products; part 2 §2
// /organization/admin/products, /organization/admin/products/{product_id}; part 1 §2 "Organization-scope
// product list: its add link is /organization/admin/products/new"). The same list and form serve both: the
// operator's back office, and the active organization's Admin (the web client appends organization_id to
// every call, so the server scopes the list, the saves and the Stripe catalog to that organization).
export interface ProductScope {
  kind: 'operator' | 'organization';
  listPath: string;
  newPath: string;
  editPath: (productId: number) => string;
  /** The lead-connector webhook test (POST /purchases/test) is a staff tool of the operator's screens. */
  webhookTest: boolean;
}

export const OPERATOR_PRODUCTS: ProductScope = {
  kind: 'operator',
  listPath: '/admin/products',
  newPath: '/admin/products/new',
  editPath: (productId) => `/admin/products/${productId}/edit`,
  webhookTest: true,
};

export const ORGANIZATION_PRODUCTS: ProductScope = {
  kind: 'organization',
  listPath: '/organization/admin/products',
  newPath: '/organization/admin/products/new',
  editPath: (productId) => `/organization/admin/products/${productId}`,
  webhookTest: false,
};
