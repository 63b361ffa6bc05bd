// Unknown address, or a page this user may not see (shown the same way on purpose).
import { Button, EmptyState } from '@mantine/core';
import { IconMapOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePageTitle } from '../../ui/use-page-title';

export default function NotFoundPage() {
  const { t } = useTranslation();
  usePageTitle(t('notFound.title'));
  return (
    <EmptyState
      icon={<IconMapOff size={28} aria-hidden />}
      withIndicatorBackground
      title={t('notFound.title')}
      description={t('notFound.body')}
      py={64}
      data-testid="not-found"
    >
      <EmptyState.Actions>
        <Button component={Link} to="/">
          {t('access.returnHome')}
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  );
}
