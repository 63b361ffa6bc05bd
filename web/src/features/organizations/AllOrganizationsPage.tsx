// /admin/organizations (spec part 2 §2 "admin/organizations/ (all organizations, staff)").
import { OrganizationsList } from './OrganizationsPage';

export default function AllOrganizationsPage() {
  return <OrganizationsList scope="all" />;
}
