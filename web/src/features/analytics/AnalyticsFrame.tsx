// What the three analytics pages share: the header, the date range (default the current month, spec part
// 1 §9) and the loading / error states of a figure.
import '@mantine/charts/styles.layer.css';
import { Alert, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { currentMonthRange, localDay, type DateRange } from '@pluma/common/rules/date-range';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/api-error';
import { DateRangeInput } from '../../ui/DateRangeInput';
import { PageHeader } from '../../ui/PageHeader';
import { localizeServerText } from '../../ui/server-text';

export function useMonthRange() {
  return useState<DateRange>(() => currentMonthRange(localDay(new Date())));
}

export function AnalyticsFrame({ title, description, range, onRange, children, testId }: {
  title: string;
  description: string;
  range: DateRange;
  onRange: (range: DateRange) => void;
  children: ReactNode;
  testId: string;
}) {
  const { t } = useTranslation('analytics');
  return (
    <Stack gap="lg" data-testid={testId}>
      <PageHeader title={title} description={description} />
      <Group>
        <DateRangeInput label={t('dateRange')} value={range} onChange={onRange} data-testid="date-range" />
      </Group>
      {children}
    </Stack>
  );
}

/** A figure's query: a skeleton while it loads, the error with a retry, else the figure. */
export function Loaded<T>({ query, children, height = 120 }: { query: UseQueryResult<T>; children: (data: T) => ReactNode; height?: number }) {
  const { t } = useTranslation('analytics');
  if (query.isPending) return <Skeleton height={height} radius="md" data-testid="analytics-loading" />;
  if (query.isError) {
    const error = query.error;
    const message = error instanceof ApiError && error.isNetworkError ? t('errors.network') : error instanceof ApiError && error.body?.message ? localizeServerText(error.body.message) : t('errors.generic');
    return (
      <Alert color="red" role="alert" title={t('loadError')}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{message}</Text>
          <Button size="xs" variant="default" onClick={() => void query.refetch()}>
            {t('retry')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  return <>{children(query.data)}</>;
}
