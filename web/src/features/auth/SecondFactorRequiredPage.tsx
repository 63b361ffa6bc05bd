// What a staff admin signed in without a second factor sees on a back-office page (issue 33): the API
// refuses them (two_factor_required) until they turn two-factor on in Settings, where this sends them.
import { Alert, Anchor, Stack } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function SecondFactorRequiredPage() {
  const { t } = useTranslation();
  return (
    <Stack maw={720} data-testid="two-factor-gate">
      <Alert color="orange" variant="light" icon={<IconShieldLock size={18} aria-hidden />} title={t('twoFactor.gateTitle')}>
        <Stack gap="xs">
          {t('twoFactor.gateText')}
          <Anchor component={Link} to="/settings#security" fw={600}>
            {t('twoFactor.gateLink')}
          </Anchor>
        </Stack>
      </Alert>
    </Stack>
  );
}
