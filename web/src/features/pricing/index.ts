// What other features use of pricing (features meet through index.ts): prices and product texts, and the
// product grid the upgrade page shows.
export { formatUsd } from './price';
export { ProductGrid } from './ProductGrid';
export { productText } from './product-text';
