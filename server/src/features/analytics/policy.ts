// Who reads the back office's analytics (spec part 1 §6; docs/decisions.md "Staff rights"): staff, admins and
// managers alike. They are figures over every customer, so nobody else reads any (403).
import { ANALYTICS_ACTIONS, type AnalyticsAction } from '@pluma/common/analytics';
import { defineRules } from '../../platform/policy/define-policy';

export const analyticsRules = defineRules<AnalyticsAction, null>({
  actions: ANALYTICS_ACTIONS,
  can: (actor) => actor.staffRole !== null,
});
