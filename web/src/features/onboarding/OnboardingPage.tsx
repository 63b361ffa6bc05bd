// The onboarding screen (spec part 2 §2): a welcome naming the plan of the latest active or completed
// purchase of the current organization (§4), the walkthrough of the first conversation, and the ways on:
// create an avatar (when avatars are on), or the main panel. The walkthrough video floats over the shell
// (WalkthroughVideo).
import { Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAppConfig } from '../../platform/config/app-config';
import { useCurrentUser } from '../../platform/session/session-context';
import { PageHeader } from '../../ui/PageHeader';
import { useCachedOnboardingStatus } from './onboarding-api';
import { Walkthrough } from './Walkthrough';

export default function OnboardingPage({ onContinue }: { onContinue: () => void }) {
  const { t } = useTranslation('onboarding');
  const config = useAppConfig();
  const user = useCurrentUser();
  const status = useCachedOnboardingStatus();
  const product = status?.purchase?.product ?? null;
  return (
    <Stack gap="lg" maw={760} data-testid="onboarding-page">
      <PageHeader title={t('title', { app: config.get('app_name') })} description={t('intro')} />
      {product && (
        <Text fw={600} data-testid="onboarding-plan">
          {t('plan', { product: product.name })}
        </Text>
      )}
      <Walkthrough conversation={status?.first_conversation ?? null} hasAccess={user.has_access} />
      <Group gap="sm">
        {config.on('avatars_enabled') && user.has_access && (
          <Button component={Link} to="/avatars" variant="default">
            {t('actions.avatar')}
          </Button>
        )}
        <Button onClick={onContinue} data-testid="onboarding-continue">
          {t('actions.continue')}
        </Button>
      </Group>
    </Stack>
  );
}
