// /organization/admin/products (spec part 2 §2 "Organization tabs: settings, users, products, analytics"; part 1
// §2 "Organization-scope product list: its add link is /organization/admin/products/new"): the active
// organization's products, for its Admin only (a Manager or a Member sees the not-found page, as the server
// refuses them). The back office's list, in the organization's scope (admin-products/product-scope.ts).
import { ORGANIZATION_PRODUCTS, ProductsScreen } from '../admin-products';
import NotFoundPage from '../../ui/NotFoundPage';
import { WithActiveOrganization } from './ActiveOrganization';

export default function OrganizationProductsPage() {
  return (
    <WithActiveOrganization>
      {(organization) => (organization.abilities.update ? <ProductsScreen scope={ORGANIZATION_PRODUCTS} canAdd /> : <NotFoundPage />)}
    </WithActiveOrganization>
  );
}
