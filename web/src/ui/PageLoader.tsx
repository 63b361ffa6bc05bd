// Centered spinner for a screen whose code or data is loading.
import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function PageLoader({ minHeight = 240 }: { minHeight?: number | string }) {
  const { t } = useTranslation();
  return (
    <Center mih={minHeight} role="status" aria-label={t('common.loading')} data-testid="page-loader">
      <Loader size="md" />
    </Center>
  );
}
