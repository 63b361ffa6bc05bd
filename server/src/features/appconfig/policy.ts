// Who manages the app configuration (spec part 1 §4, docs/decisions.md "Staff rights"): staff admins, and
// nobody else (403) — the admin view, revealing a secret, testing a key and saving. The public keys
// (service.ts publicConfig) are everyone's and need no rule.
import { APP_CONFIG_ACTIONS, type AppConfigAction } from '@pluma/common/appconfig';
import { defineRules } from '../../platform/policy/define-policy';

export const appConfigRules = defineRules<AppConfigAction, null>({
  actions: APP_CONFIG_ACTIONS,
  can: (actor) => actor.staffRole === 'admin',
});
