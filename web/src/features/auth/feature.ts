// Sign-in screens. Login, signup and recovery are chosen by the session routing (app/session/routing.ts);
// the password reset link opens whatever the session (spec part 1 §8), outside the shell.
import { lazy } from 'react';
import type { FeatureDefinition } from '../../platform/registry';

export const authFeature: FeatureDefinition = {
  id: 'auth',
  standaloneRoutes: [{ path: '/reset-password', component: lazy(() => import('./ResetPasswordPage')) }],
};
