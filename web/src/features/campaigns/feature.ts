// Campaigns of the active organization (issue 15 item 2; spec part 2 §2 /organization/campaigns,
// /organization/campaigns/{campaign_id}, /organization/campaigns/{campaign_id}/users). The sidebar's
// organization menu links here.
import { lazy } from 'react';
import type { FeatureDefinition } from '../../platform/registry';

export const campaignsFeature: FeatureDefinition = {
  id: 'campaigns',
  routes: [
    { path: '/organization/campaigns', component: lazy(() => import('./CampaignsPage')) },
    { path: '/organization/campaigns/:campaignId', component: lazy(() => import('./CampaignPage')) },
    { path: '/organization/campaigns/:campaignId/users', component: lazy(() => import('./CampaignUsersPage')) },
  ],
};
