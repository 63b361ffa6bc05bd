// Out-of-credits notice (spec part 1 §2): 'Get Access Now' (to /pricing) and 'Return to Home'; tells the user
// to get a subscription or contact support. Variants: avatars ('Creating avatars is a paid feature') and
// chat (more conversations and content need a paid subscription, with an Upgrade link).
import { Anchor, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAppConfig } from '../../platform/config/app-config';
import type { NoAccessNotice } from '../../platform/registry';
import { AccessNotice } from './AccessNotice';

export type OutOfCreditsVariant = 'default' | NoAccessNotice;

export function OutOfCredits({ variant = 'default', testId = 'out-of-credits' }: { variant?: OutOfCreditsVariant; testId?: string }) {
  const { t } = useTranslation();
  const config = useAppConfig();
  const email = config.get('email');
  const appName = config.get('app_name');

  return (
    <AccessNotice
      icon={<IconLock size={28} />}
      title={variant === 'avatars' ? t('access.avatarsTitle') : variant === 'chat' ? t('access.chatNotice') : t('access.title')}
      action={{ to: '/pricing', label: t('access.getAccess') }}
      testId={testId}
    >
      <Text c="var(--pluma-muted)" maw={480}>
        {t('access.body', { app: appName })}
      </Text>
      {variant === 'chat' && (
        <Anchor component={Link} to="/upgrade" fw={500} data-testid={`${testId}-upgrade`}>
          {t('shell.upgrade')}
        </Anchor>
      )}
      {email && (
        <Text size="sm" c="var(--pluma-muted)">
          <Trans i18nKey="access.contact" values={{ email }} components={{ mail: <Anchor href={`mailto:${email}`} /> }} />
        </Text>
      )}
    </AccessNotice>
  );
}
