// /privacidad: privacy policy of this installation, with the operator's app name and contact email.
import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAppConfig } from '../../platform/config/app-config';
import { usePageTitle } from '../../ui/use-page-title';

export const PRIVACY_SECTIONS = [
  'data',
  'use',
  'ai',
  'payments',
  'storage',
  'sharing',
  'retention',
  'rights',
  'security',
  'children',
  'changes',
] as const;

export default function PrivacyPage() {
  // The policy text is its own namespace (privacy.en.json / privacy.es.json), loaded with this page.
  const { t } = useTranslation('privacy');
  const config = useAppConfig();
  const app = config.get('app_name');
  const email = config.get('email');
  usePageTitle(t('title'));
  const paragraphs = (key: string) =>
    t(key, { app, email })
      .split('\n\n')
      .map((text, index) => (
        <Text key={index} mb="sm" lh={1.7}>
          {text}
        </Text>
      ));
  return (
    <Paper component="article" withBorder radius="lg" p={{ base: 'lg', sm: 48 }} maw={860} mx="auto" data-testid="privacy-page">
      <Stack gap="xs" mb="xl">
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          {t('title')}
        </Title>
        <Text c="var(--pluma-muted)" size="sm">
          {t('subtitle', { app })}
        </Text>
      </Stack>
      {paragraphs('intro')}
      {PRIVACY_SECTIONS.map((section) => (
        <section key={section} aria-labelledby={`privacy-${section}`}>
          <Title order={2} fz="lg" mt="xl" mb="sm" id={`privacy-${section}`}>
            {t(`${section}.title`)}
          </Title>
          {paragraphs(`${section}.body`)}
        </section>
      ))}
      <section aria-labelledby="privacy-contact">
        <Title order={2} fz="lg" mt="xl" mb="sm" id="privacy-contact">
          {t('contact.title')}
        </Title>
        <Text lh={1.7}>
          {t('contact.body', { app })}{' '}
          {email ? (
            <Anchor href={`mailto:${email}`} td="underline">
              {email}
            </Anchor>
          ) : (
            t('contact.noEmail')
          )}
        </Text>
      </section>
    </Paper>
  );
}
