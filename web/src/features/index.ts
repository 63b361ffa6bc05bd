// Every feature of the web app. A new feature adds its definition here (routes and who may open them,
// tabs, menus) and the shell and the session routing pick it up; see platform/registry.ts for the shape.
import type { FeatureDefinition } from '../platform/registry';
import { accessFeature } from './access/feature';
import { accountFeature } from './account/feature';
import { adminStaffFeature } from './admin-staff/feature';
import { adminUsersFeature } from './admin-users/feature';
import { adminProductsFeature } from './admin-products/feature';
import { adminPurchasesFeature } from './admin-purchases/feature';
import { adminSettingsFeature } from './admin-settings/feature';
import { analyticsFeature } from './analytics/feature';
import { authFeature } from './auth/feature';
import { avatarsFeature } from './avatars/feature';
import { billingFeature } from './billing/feature';
import { chatFeature } from './chat/feature';
import { checkoutFeature } from './checkout/feature';
import { conversationsFeature } from './conversations/feature';
import { groupsFeature } from './groups/feature';
import { legalFeature } from './legal/feature';
import { messagesFeature } from './messages/feature';
import { onboardingFeature } from './onboarding/feature';
import { organizationsFeature } from './organizations/feature';
import { pricingFeature } from './pricing/feature';
import { templatesFeature } from './templates/feature';
import { workflowsFeature } from './workflows/feature';
import { superFetchFeature } from './super-fetch/feature';
import { ideasFeature } from './ideas/feature';
import { documentsFeature } from './documents/feature';
import { campaignsFeature } from './campaigns/feature';
import { tutorialsFeature } from './tutorials/feature';
import { widgetsFeature } from './widgets/feature';

export const features: FeatureDefinition[] = [authFeature, accountFeature, billingFeature, accessFeature, pricingFeature, checkoutFeature, legalFeature, conversationsFeature, chatFeature, messagesFeature, adminPurchasesFeature, adminUsersFeature, adminStaffFeature, adminProductsFeature, adminSettingsFeature, analyticsFeature, organizationsFeature, groupsFeature, avatarsFeature, onboardingFeature, templatesFeature, workflowsFeature, superFetchFeature, ideasFeature, documentsFeature, campaignsFeature, tutorialsFeature, widgetsFeature];
