// /admin/settings (spec part 1 §2 "Settings (admin)", §3 every App configuration key, §4 settings editing):
// tabs content, advanced and super fetch with one Save, and the outbox. Save sends only the changed keys;
// a secret goes out only once revealed or retyped, never in its masked form.
import { Alert, Button, Card, Group, Skeleton, Stack, Tabs, Text, Title } from '@mantine/core';
import type { ConfigKey } from '@pluma/common/appconfig';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { APP_CONFIG_QUERY_KEY } from '../../platform/config/app-config';
import { useSession } from '../../platform/session/session-context';
import { showError, showSuccess } from '../../ui/alerts';
import { PageHeader } from '../../ui/PageHeader';
import { useErrorHandler } from '../../ui/use-error-handler';
import { SsoProvidersPanel } from '../auth';
import { OutboxPanel } from './OutboxPanel';
import { SmsOutboxPanel } from './SmsOutboxPanel';
import { ADMIN_CONFIG_KEY, revealConfigValue, saveConfig, useAdminConfig, type AdminConfigEntry } from './settings-api';
import { isFieldShown, SETTINGS_LAYOUT, SETTINGS_TABS, type SettingsTab } from './settings-fields';
import { changedEntries, invalidKeys, type ConfigValues } from './settings-form';
import { SettingField } from './SettingField';

const valuesOf = (entries: AdminConfigEntry[]): ConfigValues => Object.fromEntries(entries.map((e) => [e.key, e.value]));

export default function SettingsPage() {
  const { t } = useTranslation('admin-settings');
  const config = useAdminConfig();
  const header = <PageHeader title={t('title')} description={t('description')} />;
  if (config.isPending) {
    return (
      <Stack>
        {header}
        <Skeleton height={320} data-testid="settings-loading" />
      </Stack>
    );
  }
  if (config.isError) {
    return (
      <Stack>
        {header}
        <Alert color="red" role="alert" title={t('loadError')}>
          <Button size="xs" variant="default" onClick={() => void config.refetch()}>
            {t('retry')}
          </Button>
        </Alert>
      </Stack>
    );
  }
  return (
    <Stack>
      {header}
      <SettingsForm entries={config.data} />
    </Stack>
  );
}

function SettingsForm({ entries }: { entries: AdminConfigEntry[] }) {
  const { t } = useTranslation('admin-settings');
  const session = useSession();
  const canEditSecrets = session.user?.staff?.role === 'admin';
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();

  // baseline: what the server holds (a revealed secret's full value replaces its mask); values: the form.
  const [baseline, setBaseline] = useState<ConfigValues>(() => valuesOf(entries));
  const [values, setValues] = useState<ConfigValues>(() => valuesOf(entries));
  const [unlocked, setUnlocked] = useState<ReadonlySet<ConfigKey>>(new Set());
  const [invalid, setInvalid] = useState<ReadonlySet<ConfigKey>>(new Set());

  const reset = (saved: AdminConfigEntry[]) => {
    setBaseline(valuesOf(saved));
    setValues(valuesOf(saved));
    setUnlocked(new Set());
    setInvalid(new Set());
  };

  const setValue = (key: ConfigKey, value: string) => {
    setValues((current) => ({ ...current, [key]: value }));
    if (invalid.has(key)) setInvalid((current) => new Set([...current].filter((k) => k !== key)));
  };

  const unlock = async (key: ConfigKey) => {
    try {
      const entry = await revealConfigValue(key);
      // Revealing is not a change: the full value becomes the baseline too, unless the admin already retyped it.
      setBaseline((current) => ({ ...current, [key]: entry.value }));
      setValues((current) => ({ ...current, [key]: current[key] === baseline[key] ? entry.value : (current[key] ?? '') }));
      setUnlocked((current) => new Set([...current, key]));
    } catch (error) {
      handleError(error, { showValidation: true });
      throw error;
    }
  };

  const lock = useCallback((key: ConfigKey) => setUnlocked((current) => new Set([...current].filter((k) => k !== key))), []);

  const save = useMutation({
    mutationFn: saveConfig,
    onSuccess: (saved) => {
      queryClient.setQueryData(ADMIN_CONFIG_KEY, saved);
      void queryClient.invalidateQueries({ queryKey: APP_CONFIG_QUERY_KEY });
      reset(saved);
      showSuccess(t('saved'));
    },
    onError: (error) => handleError(error, { showValidation: true }),
  });

  const submit = () => {
    const changes = changedEntries(values, baseline);
    if (changes.length === 0) {
      showSuccess(t('noChanges'));
      return;
    }
    const bad = invalidKeys(changes);
    if (bad.length > 0) {
      setInvalid(new Set(bad));
      showError(t('invalidValues', { fields: bad.map((key) => t(`fields.${key}`)).join(', ') }));
      return;
    }
    save.mutate(changes);
  };

  const pending = changedEntries(values, baseline).length;
  const tabPanel = (tab: SettingsTab) => (
    <Stack gap="lg">
      {SETTINGS_LAYOUT[tab].map((section) => (
        <Card key={section.id} withBorder padding="lg" data-testid={`section-${section.id}`}>
          <Title order={2} size="h4" mb="sm">
            {t(`sections.${section.id}`)}
          </Title>
          <Stack gap="sm">
            {section.keys.filter((key) => isFieldShown(key, values)).map((key) => (
              <SettingField
                key={key}
                configKey={key}
                value={values[key] ?? ''}
                onChange={(value) => setValue(key, value)}
                error={invalid.has(key) ? t('invalidValue') : undefined}
                unlocked={unlocked.has(key)}
                canEditSecrets={canEditSecrets}
                onUnlock={() => unlock(key)}
                onLock={() => lock(key)}
              />
            ))}
          </Stack>
        </Card>
      ))}
    </Stack>
  );

  return (
    <>
      {/* Only the open tab is rendered; leaving a tab locks every secret again. */}
      <Tabs defaultValue="content" keepMounted={false} onChange={() => setUnlocked(new Set())}>
        <Tabs.List mb="md">
          {SETTINGS_TABS.map((tab) => (
            <Tabs.Tab key={tab} value={tab}>
              {t(`tabs.${tab}`)}
            </Tabs.Tab>
          ))}
          <Tabs.Tab value="outbox">{t('tabs.outbox')}</Tabs.Tab>
          <Tabs.Tab value="sso">{t('tabs.sso')}</Tabs.Tab>
        </Tabs.List>
        {SETTINGS_TABS.map((tab) => (
          <Tabs.Panel key={tab} value={tab}>
            {tabPanel(tab)}
          </Tabs.Panel>
        ))}
        <Tabs.Panel value="outbox">
          <OutboxPanel />
          <SmsOutboxPanel />
        </Tabs.Panel>
        <Tabs.Panel value="sso">
          <SsoProvidersPanel />
        </Tabs.Panel>
      </Tabs>
      <Group justify="flex-end" pos="sticky" bottom={0} py="sm" bg="var(--mantine-color-body)">
        {pending > 0 && (
          <Text size="sm" c="dimmed" data-testid="pending-changes">
            {t('pending', { count: pending })}
          </Text>
        )}
        <Button onClick={submit} loading={save.isPending} data-testid="settings-save">
          {t('save')}
        </Button>
      </Group>
    </>
  );
}
