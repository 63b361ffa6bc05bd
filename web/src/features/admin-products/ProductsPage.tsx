// /admin/products: the operator's product list (ProductsScreen.tsx). A page of its own, apart from the
// screen an organization's Admin reuses, so that the route loads on demand on its own.
import { useSession } from '../../platform/session/session-context';
import { OPERATOR_PRODUCTS } from './product-scope';
import { ProductsScreen } from './ProductsScreen';

export default function ProductsPage() {
  const session = useSession();
  return <ProductsScreen scope={OPERATOR_PRODUCTS} canAdd={session.user?.staff?.role === 'admin'} />;
}
