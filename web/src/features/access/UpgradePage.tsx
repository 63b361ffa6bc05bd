// /upgrade: the user's current plan and balance, then the plans they can move to.
import { Badge, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../platform/session/session-context';
import { formatNumber, isUnlimitedWords } from '../../platform/words';
import { ProductGrid } from '../pricing';
import { PageHeader } from '../../ui/PageHeader';

export default function UpgradePage() {
  const { t, i18n } = useTranslation();
  const user = useCurrentUser();
  const plan = user.purchase?.product?.name ?? null;
  const words = isUnlimitedWords(user.available_words) ? t('shell.unlimited') : formatNumber(Math.max(0, user.available_words), i18n.language);
  return (
    <Stack gap="lg" data-testid="upgrade-page">
      <PageHeader title={t('upgrade.title')} description={t('upgrade.description')} />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <Card withBorder radius="lg" padding="lg">
          <Text size="sm" c="var(--pluma-muted)">
            {t('upgrade.currentPlan')}
          </Text>
          <Group gap="sm" mt={4}>
            <Text fw={700} fz="lg">
              {plan ?? t('upgrade.noPlan')}
            </Text>
            <Badge variant="light" color={user.has_access ? 'green' : 'gray'}>
              {user.has_access ? t('upgrade.active') : t('upgrade.inactive')}
            </Badge>
          </Group>
        </Card>
        <Card withBorder radius="lg" padding="lg">
          <Text size="sm" c="var(--pluma-muted)">
            {t('shell.words')}
          </Text>
          <Text fw={700} fz="lg" mt={4}>
            {words}
          </Text>
        </Card>
      </SimpleGrid>
      <ProductGrid currentProductId={user.purchase?.product_id ?? null} />
    </Stack>
  );
}
