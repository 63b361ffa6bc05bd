// /admin/products/new and /admin/products/{id}/edit: the operator's product form (ProductFormScreen.tsx). A
// page of its own, apart from the screen an organization's Admin reuses, so that the route loads on demand
// on its own.
import { OPERATOR_PRODUCTS } from './product-scope';
import { ProductFormScreen } from './ProductFormScreen';

export default function ProductFormPage() {
  return <ProductFormScreen scope={OPERATOR_PRODUCTS} />;
}
