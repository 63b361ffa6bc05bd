// Mantine's charts, loaded on demand: recharts and d3 (about 100 KB brotli) are most of the analytics pages'
// JavaScript, and the figures and tables render without them (issue 31 item 5: the route's first load stays
// under 250 KB). Each chart shows the app's loader, at the chart's height, until its code has arrived.
import type { BarChartProps, DonutChartProps } from '@mantine/charts';
import { lazy, Suspense } from 'react';
import { PageLoader } from '../../ui/PageLoader';

const LazyBarChart = lazy(() => import('@mantine/charts').then((m) => ({ default: m.BarChart })));
const LazyDonutChart = lazy(() => import('@mantine/charts').then((m) => ({ default: m.DonutChart })));

/** Mantine's DonutChart default size (px). */
const DONUT_SIZE = 160;

export function BarChart(props: BarChartProps) {
  return (
    <Suspense fallback={<PageLoader minHeight={typeof props.h === 'number' || typeof props.h === 'string' ? props.h : undefined} />}>
      <LazyBarChart {...props} />
    </Suspense>
  );
}

export function DonutChart(props: DonutChartProps) {
  return (
    <Suspense fallback={<PageLoader minHeight={props.size ?? DONUT_SIZE} />}>
      <LazyDonutChart {...props} />
    </Suspense>
  );
}
