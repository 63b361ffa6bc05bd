// /organization/admin/products/{product_id} and /organization/admin/products/new (spec part 2 §2): the product
// form for the active organization's Admin; its products are sold with the organization's own Stripe keys
// (the Stripe section lists its own catalog). Anyone else sees the not-found page, as the server refuses them.
import { ORGANIZATION_PRODUCTS, ProductFormScreen } from '../admin-products';
import NotFoundPage from '../../ui/NotFoundPage';
import { WithActiveOrganization } from './ActiveOrganization';

export default function OrganizationProductFormPage() {
  return (
    <WithActiveOrganization>
      {(organization) => (organization.abilities.update ? <ProductFormScreen scope={ORGANIZATION_PRODUCTS} /> : <NotFoundPage />)}
    </WithActiveOrganization>
  );
}
