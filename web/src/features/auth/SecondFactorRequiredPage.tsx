// What a staff admin signed in without a second factor sees on a back-office page (issue 33), and an
// organization's Admin on its admin pages when the organization requires one: the API refuses them
// (two_factor_required) until they pass a second factor (TOTP or a passkey) set up in Settings, where this sends them.
import { Alert, Anchor, Stack } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function SecondFactorRequiredPage({ reason = 'staff' }: { reason?: 'staff' | 'organization' }) {
  const { t } = useTranslation();
  return (
    <Stack maw={720} data-testid="two-factor-gate">
      <Alert color="orange" variant="light" icon={<IconShieldLock size={18} aria-hidden />} title={t('twoFactor.gateTitle')}>
        <Stack gap="xs">
          {t(reason === 'organization' ? 'twoFactor.gateTextOrganization' : 'twoFactor.gateText')}
          <Anchor component={Link} to="/settings#security" fw={600}>
            {t('twoFactor.gateLink')}
          </Anchor>
        </Stack>
      </Alert>
    </Stack>
  );
}
