// Billing (spec part 1 §2 /billing): the signed-in user's own purchases and invoices, receipts as PDF and
// cancelling a subscription. Open without access too: a customer whose access ended still sees their bills.
import { IconReceipt } from '@tabler/icons-react';
import { lazy } from 'react';
import type { FeatureDefinition } from '../../platform/registry';

export const billingFeature: FeatureDefinition = {
  id: 'billing',
  routes: [{ path: '/billing', component: lazy(() => import('./BillingPage')), audience: 'signedIn' }],
  // 'breadcrumbs.billing' is the shell's own "Billing" / "Facturación" (the menu renders before this namespace loads).
  userMenu: [{ labelKey: 'breadcrumbs.billing', to: '/billing', icon: IconReceipt, order: 30 }],
};
