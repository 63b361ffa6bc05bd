// /sorry: where a premium-feature or plan-limit error (HTTP 412) lands (spec part 1 §8).
import { Button, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePageTitle } from '../../ui/use-page-title';

export default function SorryPage() {
  const { t } = useTranslation();
  usePageTitle(t('sorry.title'));
  return (
    <Paper withBorder radius="lg" p={{ base: 'lg', sm: 48 }} maw={640} mx="auto" mt={{ base: 0, sm: 'xl' }} data-testid="sorry-page">
      <Stack align="center" ta="center" gap="md">
        <ThemeIcon size={56} radius="xl" variant="light" color="accent" aria-hidden>
          <IconSparkles size={28} />
        </ThemeIcon>
        <Title order={1} fz={{ base: 22, sm: 26 }}>
          {t('sorry.title')}
        </Title>
        <Text>{t('errors.premium')}</Text>
        <Text size="sm" c="var(--pluma-muted)" maw={460}>
          {t('sorry.body')}
        </Text>
        <Group justify="center" gap="sm" mt="sm">
          <Button component={Link} to="/upgrade" size="md">
            {t('shell.upgrade')}
          </Button>
          <Button component={Link} to="/" variant="default" size="md">
            {t('access.returnHome')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
