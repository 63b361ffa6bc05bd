// A whole screen that can only say why there is nothing here (not found, feature switched off), with the
// page title set and a way back home.
import { Button, EmptyState } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePageTitle } from './use-page-title';

interface ReturnHomeScreenProps {
  icon: ReactNode;
  title: string;
  body: string;
  testId: string;
}

export function ReturnHomeScreen({ icon, title, body, testId }: ReturnHomeScreenProps) {
  const { t } = useTranslation();
  usePageTitle(title);
  return (
    <EmptyState icon={icon} withIndicatorBackground title={title} description={body} py={64} data-testid={testId}>
      <EmptyState.Actions>
        <Button component={Link} to="/">
          {t('access.returnHome')}
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  );
}
