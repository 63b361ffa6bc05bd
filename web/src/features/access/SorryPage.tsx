// /sorry: where a premium-feature or plan-limit error (HTTP 412) lands (spec part 1 §8).
import { Text } from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../ui/use-page-title';
import { AccessNotice } from './AccessNotice';

export default function SorryPage() {
  const { t } = useTranslation();
  usePageTitle(t('sorry.title'));
  return (
    <AccessNotice
      icon={<IconSparkles size={28} />}
      iconColor="accent"
      title={t('sorry.title')}
      action={{ to: '/upgrade', label: t('shell.upgrade') }}
      mt={{ base: 0, sm: 'xl' }}
      testId="sorry-page"
    >
      <Text>{t('errors.premium')}</Text>
      <Text size="sm" c="var(--pluma-muted)" maw={460}>
        {t('sorry.body')}
      </Text>
    </AccessNotice>
  );
}
