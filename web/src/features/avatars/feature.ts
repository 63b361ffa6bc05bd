// Avatars (spec part 2 §2 "Avatars and trainings"): /avatars (own and community lists) and the avatar page
// /avatars/{avatar_id}/*; the Avatars tab shows only when avatars_enabled is on (spec part 1 §2).
import { IconUserCircle } from '@tabler/icons-react';
import { lazy } from 'react';
import type { FeatureDefinition } from '../../platform/registry';

export const avatarsFeature: FeatureDefinition = {
  id: 'avatars',
  routes: [
    { path: '/avatars', component: lazy(() => import('./AvatarsPage')), noAccess: 'avatars' },
    { path: '/avatars/:avatarId/*', component: lazy(() => import('./AvatarPage')), noAccess: 'avatars' },
  ],
  tabs: [{ id: 'avatars', labelKey: 'breadcrumbs.avatars', to: '/avatars', icon: IconUserCircle, configKey: 'avatars_enabled', order: 10 }],
};
