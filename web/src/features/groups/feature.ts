// Groups of the active organization (issue 12 item 4; spec part 2 §2 /organization/groups,
// /organization/groups/{groupId}). The sidebar's organization picker links here. A group's user is the
// organization's user detail (organizations/feature.ts).
import { lazy } from 'react';
import type { FeatureDefinition } from '../../platform/registry';

export const groupsFeature: FeatureDefinition = {
  id: 'groups',
  routes: [
    { path: '/organization/groups', component: lazy(() => import('./GroupsPage')) },
    { path: '/organization/groups/:groupId', component: lazy(() => import('./GroupPage')) },
  ],
};
