// A screen whose feature is switched off in the app settings (spec part 1 §2 "Main navigation tabs": each
// tab only if its setting is on; the API then answers 404 feature_disabled): said plainly instead of a
// screen whose every call fails. Staff see it too: an admin switches the feature back on first.
import { Button, EmptyState } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePageTitle } from '../../ui/use-page-title';

export default function FeatureUnavailablePage() {
  const { t } = useTranslation();
  usePageTitle(t('featureOff.title'));
  return (
    <EmptyState
      icon={<IconPlugConnectedX size={28} aria-hidden />}
      withIndicatorBackground
      title={t('featureOff.title')}
      description={t('featureOff.body')}
      py={64}
      data-testid="feature-unavailable"
    >
      <EmptyState.Actions>
        <Button component={Link} to="/">
          {t('access.returnHome')}
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  );
}
