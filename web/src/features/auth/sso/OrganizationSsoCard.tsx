// An organization's single sign-on (issue 33 item 4), on its settings page for its Admin: the provider and
// "require SSO for the organization's domain" (which needs the domain set).
import { Alert, Button, Card, Group, Select, Skeleton, Stack, Switch, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OrganizationSsoResponse } from '@pluma/common/sso';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSuccess } from '../../../ui/alerts';
import { useErrorHandler } from '../../../ui/use-error-handler';
import { organizationSsoKey, saveOrganizationSso, useOrganizationSso } from './sso-api';

export function OrganizationSsoCard({ organizationId }: { organizationId: number }) {
  const sso = useOrganizationSso(organizationId);
  if (sso.isPending) return <Skeleton height={120} />;
  if (sso.isError) return null;
  return <OrganizationSsoForm organizationId={organizationId} saved={sso.data} />;
}

function OrganizationSsoForm({ organizationId, saved: initial }: { organizationId: number; saved: OrganizationSsoResponse }) {
  const { t } = useTranslation('sso');
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const [providerId, setProviderId] = useState<string | null>(initial.provider_id === null ? null : String(initial.provider_id));
  const [required, setRequired] = useState(initial.required);
  const save = useMutation({
    mutationFn: () => saveOrganizationSso(organizationId, { provider_id: providerId === null ? null : Number(providerId), required: providerId !== null && required }),
    onSuccess: (saved) => {
      queryClient.setQueryData(organizationSsoKey(organizationId), saved);
      showSuccess(t('organization.saved'));
    },
    onError: (error) => handleError(error, { showValidation: true }),
  });

  const { domain, providers } = initial;
  // Saving makes the requirement start to count (or name another provider): the server ends the domain's sessions.
  const requiring = providerId !== null && domain !== null && required;
  const signsOut = requiring && (!initial.required || String(initial.provider_id) !== providerId);
  return (
    <Card withBorder padding="lg" data-testid="organization-sso">
      <Stack gap="sm">
        <Title order={2} fz="md">
          {t('organization.title')}
        </Title>
        {providers.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('organization.noProviders')}
          </Text>
        ) : (
          <>
            <Text size="sm" c="dimmed">
              {t('organization.description', { domain: domain ?? '—' })}
            </Text>
            <Select
              label={t('organization.provider')}
              placeholder={t('organization.none')}
              clearable
              data={providers.map((p) => ({ value: String(p.provider_id), label: p.name }))}
              value={providerId}
              onChange={setProviderId}
              data-testid="organization-sso-provider"
            />
            {domain === null && <Alert color="yellow">{t('organization.noDomain')}</Alert>}
            <Switch
              label={t('organization.required')}
              checked={required}
              disabled={providerId === null || domain === null}
              onChange={(event) => setRequired(event.currentTarget.checked)}
              data-testid="organization-sso-required"
            />
            {signsOut && (
              <Alert color="yellow" data-testid="organization-sso-signs-out">
                {t('organization.signsOut', { domain })}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button onClick={() => save.mutate()} loading={save.isPending} data-testid="organization-sso-save">
                {t('organization.save')}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Card>
  );
}
