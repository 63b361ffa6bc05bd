// The customers analytics lists (spec part 1 §2 "Analytics customers"), apart from analytics.ts's schemas
// (which re-exports them): the page needs these at once, zod's schemas not at all (issue 31 item 5).
export const CUSTOMER_LISTS = ['signups', 'customers', 'cancelled'] as const;
export type CustomerList = (typeof CUSTOMER_LISTS)[number];
export const ANALYTICS_LIST_PAGE_SIZE = 12;
