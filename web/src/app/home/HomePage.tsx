// Signed-in home until a feature claims "/": a greeting, the balance and the enabled tools.
import { Anchor, Box, Card, EmptyState, Group, SimpleGrid, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { IconArrowRight, IconSettings } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useActiveOrganization } from '../../api/organization';
import { registry } from '../app-registry';
import { useAppConfig } from '../../platform/config/app-config';
import { visibleTabs } from '../../platform/registry';
import { useCurrentUser } from '../../platform/session/session-context';
import { PageHeader } from '../../ui/PageHeader';
import { StartChatBox } from '../../features/conversations/StartChatBox';
import classes from './HomePage.module.css';

export default function HomePage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const config = useAppConfig();
  const organization = useActiveOrganization();
  const tabs = visibleTabs(registry.tabs, { isOn: config.on, inOrganization: organization !== null });
  return (
    <div data-testid="home-page">
      <PageHeader title={t('home.greeting', { name: user.name || user.email })} description={t('home.subtitle', { app: config.get('app_name') })} />
      {/* Start a chat by just typing (the conversation is named from the prompt). */}
      <Box mb="lg">
        <StartChatBox />
      </Box>
      {tabs.length === 0 ? (
        <Card withBorder radius="lg" padding="xl">
          <EmptyState
            icon={<IconSettings size={28} aria-hidden />}
            withIndicatorBackground
            title={t('home.emptyTitle')}
            description={t('home.emptyBody')}
          >
            <EmptyState.Actions>
              <Anchor component={Link} to="/settings" fw={600}>
                {t('home.openSettings')}
              </Anchor>
            </EmptyState.Actions>
          </EmptyState>
        </Card>
      ) : (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="lg">
          {tabs.map((tab) => (
            <UnstyledButton key={tab.id} component={Link} to={tab.to} className={classes.tile}>
              <Group justify="space-between" wrap="nowrap">
                <Group gap="sm" wrap="nowrap">
                  <ThemeIcon variant="light" size={40} radius="md" aria-hidden>
                    <tab.icon size={22} />
                  </ThemeIcon>
                  <Text fw={600}>{t(tab.labelKey)}</Text>
                </Group>
                <IconArrowRight size={18} aria-hidden />
              </Group>
            </UnstyledButton>
          ))}
        </SimpleGrid>
      )}
    </div>
  );
}
