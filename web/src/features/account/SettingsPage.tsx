// Settings (spec part 1 §2): language (EN/ES), dark mode, save, the note about the AI-provider key and the key
// itself (AiKeyCard: saved masked, tested, removed; issue 13 item 1).
import { Alert, Button, Card, Group, NativeSelect, Stack, Switch, Text } from '@mantine/core';
import type { Lang } from '@pluma/common/constants';
import { IconInfoCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../platform/session/session-context';
import { isLang } from '../../i18n';
import { showSuccess } from '../../ui/alerts';
import { PageHeader } from '../../ui/PageHeader';
import { useErrorHandler } from '../../ui/use-error-handler';
import { PasskeysCard, TwoFactorCard } from '../auth';
import { AiKeyCard } from './AiKeyCard';
import { useSaveProfile } from './use-save-profile';

export default function SettingsPage() {
  const { t, i18n } = useTranslation();
  const user = useCurrentUser();
  const handleError = useErrorHandler();
  const save = useSaveProfile();
  const [lang, setLang] = useState<Lang>(user.lang);
  const [darkMode, setDarkMode] = useState(user.dark_mode);
  const changed = lang !== user.lang || darkMode !== user.dark_mode;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    save.mutate(
      { lang, dark_mode: darkMode },
      {
        // i18n.t, not t: the confirmation speaks the language just chosen.
        onSuccess: () => showSuccess(i18n.t('settings.saved')),
        onError: (error) => handleError(error, { showValidation: true }),
      },
    );
  };

  return (
    <Stack gap="lg" maw={720} data-testid="settings-page">
      <PageHeader title={t('settings.title')} description={t('settings.description')} />
      <Card withBorder radius="lg" padding="xl" component="form" onSubmit={submit} aria-busy={save.isPending}>
        <Stack gap="lg">
          <NativeSelect
            label={t('language.label')}
            description={t('settings.languageHint')}
            value={lang}
            onChange={(event) => isLang(event.currentTarget.value) && setLang(event.currentTarget.value)}
            data={[
              { value: 'en', label: t('language.en') },
              { value: 'es', label: t('language.es') },
            ]}
            maw={320}
            autoFocus
          />
          <Switch
            label={t('settings.darkMode')}
            description={t('settings.darkModeHint')}
            checked={darkMode}
            onChange={(event) => setDarkMode(event.currentTarget.checked)}
            size="md"
          />
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending} disabled={!changed}>
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </Card>
      <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} aria-hidden />} title={t('settings.apiKeyTitle')} data-testid="api-key-note">
        <Text size="sm">{t('settings.apiKeyNote')}</Text>
      </Alert>
      <AiKeyCard />
      <TwoFactorCard />
      <PasskeysCard />
    </Stack>
  );
}
