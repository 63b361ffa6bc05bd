// What other features use of the product back-office (features meet through index.ts): the product list
// and form screens, which an organization's Admin reuses for the organization's own products.
export { ProductFormScreen } from './ProductFormScreen';
export { ProductsScreen } from './ProductsScreen';
export { ORGANIZATION_PRODUCTS } from './product-scope';
