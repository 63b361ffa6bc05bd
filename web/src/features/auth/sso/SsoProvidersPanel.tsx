// The staff admins' single sign-on providers (issue 33 item 4), a tab of /admin/settings: list, add, edit,
// delete. The client secret comes masked (last 4 characters); saved unchanged it keeps the stored one.
import { Alert, Badge, Button, Card, Code, Group, Skeleton, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import type { SsoProviderAdmin, SsoProviderRequest } from '@pluma/common/sso';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSuccess } from '../../../ui/alerts';
import { useErrorHandler } from '../../../ui/use-error-handler';
import { createSsoProvider, deleteSsoProvider, SSO_ADMIN_KEY, SSO_PROVIDERS_KEY, updateSsoProvider, useAdminSsoProviders } from './sso-api';

const EMPTY: SsoProviderRequest = { name: '', issuer: '', client_id: '', client_secret: '', enabled: true };

function ProviderForm(props: { initial: SsoProviderRequest; onSave: (body: SsoProviderRequest) => void; onCancel: () => void; saving: boolean }) {
  const { t } = useTranslation('sso');
  const [values, setValues] = useState(props.initial);
  const set = (field: keyof SsoProviderRequest) => (event: React.ChangeEvent<HTMLInputElement>) => {
    // Read now: the event's target is gone by the time the state updater runs.
    const value = field === 'enabled' ? event.currentTarget.checked : event.currentTarget.value;
    setValues((current) => ({ ...current, [field]: value }));
  };
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        props.onSave(values);
      }}
      data-testid="sso-provider-form"
    >
      <Stack gap="sm">
        <TextInput label={t('providers.name')} required value={values.name} onChange={set('name')} data-testid="sso-provider-name" />
        <TextInput label={t('providers.issuer')} required placeholder="https://accounts.google.com" value={values.issuer} onChange={set('issuer')} data-testid="sso-provider-issuer" />
        <TextInput label={t('providers.clientId')} required value={values.client_id} onChange={set('client_id')} data-testid="sso-provider-client-id" />
        <TextInput
          label={t('providers.clientSecret')}
          description={t('providers.clientSecretHelp')}
          autoComplete="off"
          value={values.client_secret ?? ''}
          onChange={set('client_secret')}
          data-testid="sso-provider-client-secret"
        />
        <Switch label={t('providers.enabled')} checked={values.enabled ?? true} onChange={set('enabled')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel}>
            {t('providers.cancel')}
          </Button>
          <Button type="submit" loading={props.saving} data-testid="sso-provider-save">
            {t('providers.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function SsoProvidersPanel() {
  const { t } = useTranslation('sso');
  const providers = useAdminSsoProviders();
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  // null: no form open; 'new': adding; a provider: editing it.
  const [editing, setEditing] = useState<SsoProviderAdmin | 'new' | null>(null);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: SSO_ADMIN_KEY });
    void queryClient.invalidateQueries({ queryKey: SSO_PROVIDERS_KEY });
  };
  const save = useMutation({
    mutationFn: (body: SsoProviderRequest) => (editing && editing !== 'new' ? updateSsoProvider(editing.provider_id, body) : createSsoProvider(body)),
    onSuccess: () => {
      showSuccess(t('providers.saved'));
      setEditing(null);
      refresh();
    },
    onError: (error) => handleError(error, { showValidation: true }),
  });
  const remove = useMutation({
    mutationFn: (id: number) => deleteSsoProvider(id),
    onSuccess: () => {
      showSuccess(t('providers.deleted'));
      refresh();
    },
    onError: (error) => handleError(error),
  });

  if (providers.isPending) return <Skeleton height={160} />;
  if (providers.isError)
    return (
      <Alert color="red" role="alert">
        {t('providers.loadError')}
      </Alert>
    );
  return (
    <Card withBorder padding="lg" data-testid="sso-providers-panel">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('providers.title')}
          </Title>
          {editing === null && (
            <Button size="xs" onClick={() => setEditing('new')} data-testid="sso-provider-add">
              {t('providers.add')}
            </Button>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {t('providers.description')}
        </Text>
        {editing !== null && (
          <ProviderForm
            key={editing === 'new' ? 'new' : editing.provider_id}
            initial={editing === 'new' ? EMPTY : { name: editing.name, issuer: editing.issuer, client_id: editing.client_id, client_secret: editing.client_secret, enabled: editing.enabled }}
            saving={save.isPending}
            onSave={(body) => save.mutate(body)}
            onCancel={() => setEditing(null)}
          />
        )}
        {providers.data.length === 0 && editing === null && <Text size="sm">{t('providers.empty')}</Text>}
        {providers.data.map((provider) => (
          <Card key={provider.provider_id} withBorder padding="sm" data-testid={`sso-admin-provider-${provider.provider_id}`}>
            <Group justify="space-between" align="flex-start">
              <Stack gap={4}>
                <Group gap="xs">
                  <Text fw={600}>{provider.name}</Text>
                  <Badge variant="light" color={provider.enabled ? 'green' : 'gray'}>
                    {provider.enabled ? t('providers.enabled') : t('providers.disabled')}
                  </Badge>
                </Group>
                <Text size="sm">{provider.issuer}</Text>
                <Text size="sm" c="dimmed">
                  {t('providers.clientId')}: {provider.client_id} · {t('providers.clientSecret')}: {provider.client_secret || '—'}
                </Text>
                <Text size="sm" c="dimmed">
                  {t('providers.redirectUri')}: <Code>{provider.redirect_uri}</Code>
                </Text>
              </Stack>
              <Group gap="xs">
                <Button size="xs" variant="default" onClick={() => setEditing(provider)}>
                  {t('providers.edit')}
                </Button>
                <Button
                  size="xs"
                  color="red"
                  variant="light"
                  loading={remove.isPending && remove.variables === provider.provider_id}
                  onClick={() => window.confirm(t('providers.confirmDelete', { name: provider.name })) && remove.mutate(provider.provider_id)}
                >
                  {t('providers.delete')}
                </Button>
              </Group>
            </Group>
          </Card>
        ))}
      </Stack>
    </Card>
  );
}
