// Checkout and thank-you (spec part 1 §2): standalone pages, shown whatever the session — a signed-out
// visitor signs in or up on the checkout page itself and stays there.
import { lazy } from 'react';
import type { FeatureDefinition } from '../../platform/registry';

export const checkoutFeature: FeatureDefinition = {
  id: 'checkout',
  standaloneRoutes: [
    { path: '/checkout/:productId', component: lazy(() => import('./CheckoutPage')) },
    { path: '/thankyou/:purchaseId', component: lazy(() => import('./ThankYouPage')) },
  ],
};
