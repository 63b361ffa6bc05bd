// What other features use of the staff analytics (features meet through index.ts): the frame, cards and
// breakdown the organization's analytics page is built from.
export { AnalyticsFrame, Loaded, useMonthRange } from './AnalyticsFrame';
export { FigureCard } from './FigureCard';
export { ShareBreakdown } from './ShareBreakdown';
export { formatNumber } from './analytics-view';
