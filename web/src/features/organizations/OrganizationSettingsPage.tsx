// /organizations/organization-settings (create, staff) and /organizations/organization-settings/{id}
// (spec part 2 §2 "Organization form"): name (required: 'Please add a name to your organization'), tagline,
// URL slug and domain (the selection order, §4), the payment provider's public key, secret key and webhook
// secret, the AI provider key (masked), thumbnail upload, welcome video by upload or URL; Delete in the
// settings, confirmed by typing the exact name (§5). Save rule (§4): no numeric id creates. Every field is
// there at creation too (issue 30 item 20); a Manager sees the settings read-only (non-Members get the
// settings icon, §2), without the keys, which only the Admin is sent.
import { Alert, Avatar, Button, Card, Code, Fieldset, FileInput, Group, SegmentedControl, Select, Skeleton, Stack, Switch, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { createOrganizationRequest, updateOrganizationRequest, type Organization } from '@pluma/common/organizations';
import { IconBuilding, IconPhoto, IconTrash, IconVideo } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/api-error';
import { showError, showSuccess } from '../../ui/alerts';
import { formRules } from '../../ui/form-rules';
import { PageHeader } from '../../ui/PageHeader';
import { screenText, useLocalizedInputProps } from '../../ui/screen-text';
import { useErrorHandler } from '../../ui/use-error-handler';
import { useCurrentUser } from '../../platform/session/session-context';
import { OrganizationSsoCard, SecondFactorRequiredPage } from '../auth';
import { awaitsSecondFactor } from './ActiveOrganization';
import { DeleteOrganizationModal } from './DeleteOrganizationModal';
import { SecretInput } from './SecretInput';
import {
  createPayload,
  EMPTY_ORGANIZATION_FORM,
  formValuesOf,
  organizationWebhookUrl,
  SECRET_FIELDS,
  updatePayload,
  WEB_SEARCH_PROVIDERS,
  webSearchNeedsKey,
  type OrganizationFormValues,
  type OrganizationWebSearchProvider,
} from './organization-form';
import { createOrganization, ORGANIZATIONS_KEY, organizationKey, updateOrganization, uploadFile, useOrganization } from './organizations-api';

export default function OrganizationSettingsPage() {
  const param = useParams().id ?? 'new';
  // spec part 2 §4: an id that is not numeric means create.
  const organizationId = /^\d+$/.test(param) ? Number(param) : null;
  const existing = useOrganization(organizationId);
  const { t } = useTranslation('organizations');
  const user = useCurrentUser();
  if (organizationId === null) return <OrganizationForm organization={null} />;
  if (existing.isPending) return <Skeleton height={420} data-testid="organization-form-loading" />;
  if (existing.isError)
    return (
      <Alert color="red" role="alert" data-testid="organization-form-error">
        {screenText({ failure: existing.error }, t) ?? t('settings.loadError')}
      </Alert>
    );
  // Before the refusal: an Admin whose second factor is pending has a Member's abilities until they pass it.
  if (awaitsSecondFactor(existing.data, user.two_factor.verified)) return <SecondFactorRequiredPage reason="organization" />;
  if (!existing.data.abilities.update && !existing.data.abilities.view_users)
    return (
      <Alert color="yellow" data-testid="organization-form-refused">
        {t('settings.notAllowed')}
      </Alert>
    );
  return <OrganizationForm key={existing.data.organization_id} organization={existing.data} />;
}

function OrganizationForm({ organization }: { organization: Organization | null }) {
  const { t } = useTranslation('organizations');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const id = organization?.organization_id ?? null;
  const readOnly = organization !== null && !organization.abilities.update;
  const form = useForm<OrganizationFormValues>({
    initialValues: organization ? formValuesOf(organization) : EMPTY_ORGANIZATION_FORM,
    validate: formRules<OrganizationFormValues>(
      id === null ? { schema: createOrganizationRequest, payload: createPayload } : { schema: updateOrganizationRequest, payload: (v) => updatePayload(id, v) },
    ),
  });
  const inputProps = useLocalizedInputProps(form);
  const [thumbnail, setThumbnail] = useState<string | null>(organization?.thumbnail ?? null);
  const [deleting, setDeleting] = useState(false);

  const upload = useMutation({
    mutationFn: ({ file, kind }: { file: File; kind: 'thumbnail' | 'video' }) => uploadFile(file, { public: kind === 'thumbnail' }).then((f) => ({ ...f, kind })),
    onSuccess: (file) => {
      if (file.kind === 'thumbnail') {
        form.setFieldValue('thumbnail_file_id', file.file_id);
        setThumbnail(file.src);
      } else form.setFieldValue('welcome_video_file_id', file.file_id);
    },
    onError: (e) => handleError(e, { showValidation: true }),
  });

  const save = useMutation({
    mutationFn: (values: OrganizationFormValues) => (id === null ? createOrganization(createPayload(values)) : updateOrganization(updatePayload(id, values))),
    onSuccess: (saved) => {
      showSuccess(t('settings.saved'));
      void queryClient.invalidateQueries({ queryKey: ORGANIZATIONS_KEY });
      queryClient.setQueryData(organizationKey(saved.organization_id), saved);
      if (id === null) void navigate(`/organizations/organization-settings/${saved.organization_id}`);
      else form.setValues(formValuesOf(saved));
    },
    onError: (error) => {
      // A 400's per-field messages go under their fields; anything else is an alert (spec part 2 §8).
      if (error instanceof ApiError && error.status === 400 && error.body?.details) form.setErrors(error.body.details);
      else handleError(error, { showValidation: true });
    },
  });

  return (
    <Stack maw={720} data-testid="organization-form">
      <PageHeader
        title={organization ? organization.name : t('settings.newTitle')}
        description={organization ? t('settings.title') : undefined}
        actions={
          organization?.abilities.delete && (
            <Button color="red" variant="light" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setDeleting(true)} data-testid="delete-organization">
              {t('settings.delete')}
            </Button>
          )
        }
      />
      <form
        noValidate
        onSubmit={form.onSubmit(
          (values) => save.mutate(values),
          // spec part 2 §8: the missing name is an alert as well.
          (errors) => errors.name && showError(t('settings.nameRequired')),
        )}
      >
        <Fieldset variant="unstyled" disabled={readOnly} data-testid="organization-fieldset">
          <Stack gap="md">
            {readOnly && (
              <Alert color="blue" data-testid="organization-form-read-only">
                {t('settings.readOnly')}
              </Alert>
            )}
            <Card withBorder padding="lg">
              <Stack gap="sm">
                <TextInput label={t('settings.name')} required {...inputProps('name')} data-testid="organization-name" />
                <Textarea label={t('settings.tagline')} autosize minRows={2} {...inputProps('tagline')} data-testid="organization-tagline" />
                <Group grow align="flex-start">
                  <TextInput label={t('settings.slug')} description={t('settings.slugHelp')} {...inputProps('slug')} data-testid="organization-slug" />
                  <TextInput label={t('settings.domain')} description={t('settings.domainHelp')} placeholder="team.example.com" {...inputProps('domain')} data-testid="organization-domain" />
                </Group>
                <Switch
                  label={t('settings.requireTwoFactorAdmins')}
                  description={t('settings.requireTwoFactorAdminsHelp')}
                  checked={form.values.require_two_factor_admins}
                  onChange={(event) => form.setFieldValue('require_two_factor_admins', event.currentTarget.checked)}
                  data-testid="organization-require-two-factor"
                />
              </Stack>
            </Card>
            <Card withBorder padding="lg">
              <Stack gap="sm">
                <Title order={2} fz="md">
                  {t('settings.media')}
                </Title>
                <Group align="flex-end" gap="md">
                  <Avatar src={thumbnail} alt="" size={64} radius="md">
                    <IconBuilding size={28} aria-hidden />
                  </Avatar>
                  <FileInput
                    style={{ flex: 1 }}
                    label={t('settings.thumbnail')}
                    accept="image/*"
                    leftSection={<IconPhoto size={16} aria-hidden />}
                    placeholder={t('settings.chooseImage')}
                    onChange={(file) => file && upload.mutate({ file, kind: 'thumbnail' })}
                    disabled={upload.isPending}
                    clearable={false}
                    data-testid="organization-thumbnail"
                  />
                </Group>
                <Stack gap={6}>
                  <Text size="sm" fw={500}>
                    {t('settings.welcomeVideo')}
                  </Text>
                  <SegmentedControl
                    data={[
                      { value: 'file', label: t('settings.videoFile') },
                      { value: 'url', label: t('settings.videoUrl') },
                    ]}
                    {...form.getInputProps('video_source')}
                    style={{ alignSelf: 'flex-start' }}
                    data-testid="organization-video-source"
                  />
                  {form.values.video_source === 'file' ? (
                    <FileInput
                      accept="video/*"
                      aria-label={t('settings.videoFile')}
                      leftSection={<IconVideo size={16} aria-hidden />}
                      placeholder={form.values.welcome_video_file_id ? t('settings.videoUploaded') : t('settings.chooseVideo')}
                      onChange={(file) => file && upload.mutate({ file, kind: 'video' })}
                      disabled={upload.isPending}
                      clearable={false}
                      data-testid="organization-video-file"
                    />
                  ) : (
                    <TextInput aria-label={t('settings.videoUrl')} placeholder="https://" {...inputProps('welcome_video_url')} data-testid="organization-video-url" />
                  )}
                </Stack>
              </Stack>
            </Card>
            {!readOnly && (
              <Card withBorder padding="lg">
                <Stack gap="sm">
                  <Title order={2} fz="md">
                    {t('settings.keys')}
                  </Title>
                  {/* The organization's own Stripe webhook (server payments/routes.ts; docs/decisions.md "Organization products"). */}
                  <Text size="sm" c="dimmed">
                    {t('settings.webhookHelp')}
                  </Text>
                  {organization ? (
                    <Code block data-testid="organization-webhook-url">
                      {organizationWebhookUrl(organization.organization_id)}
                    </Code>
                  ) : (
                    <Text size="sm" c="dimmed" data-testid="organization-webhook-later">
                      {t('settings.webhookAfterCreate')}
                    </Text>
                  )}
                  <TextInput label={t('settings.stripe_public')} {...inputProps('stripe_public')} data-testid="organization-stripe-public" />
                  {SECRET_FIELDS.filter((field) => field !== 'web_search_api_key').map((field) => (
                    <SecretInput
                      key={field}
                      name={field}
                      label={t(`settings.${field}`)}
                      masked={organization?.[field] ?? ''}
                      value={form.values[field]}
                      onChange={(value) => form.setFieldValue(field, value)}
                      error={inputProps(field).error}
                    />
                  ))}
                  {/* Its own web search (issue 32): its members' searches in it use this provider and key. */}
                  <Select
                    label={t('settings.web_search_provider')}
                    description={t('settings.webSearchHelp')}
                    data={WEB_SEARCH_PROVIDERS.map((provider) => ({ value: provider || 'none', label: t(`settings.webSearchProviders.${provider || 'none'}`) }))}
                    value={form.values.web_search_provider || 'none'}
                    onChange={(value) => form.setFieldValue('web_search_provider', !value || value === 'none' ? '' : (value as OrganizationWebSearchProvider))}
                    allowDeselect={false}
                    error={inputProps('web_search_provider').error}
                    data-testid="organization-web-search-provider"
                  />
                  {form.values.web_search_provider !== '' && (
                    <TextInput label={t('settings.web_search_url')} placeholder="https://" {...inputProps('web_search_url')} data-testid="organization-web-search-url" />
                  )}
                  {webSearchNeedsKey(form.values.web_search_provider) && (
                    <SecretInput
                      name="web_search_api_key"
                      label={t('settings.web_search_api_key')}
                      masked={organization?.web_search_api_key ?? ''}
                      value={form.values.web_search_api_key}
                      onChange={(value) => form.setFieldValue('web_search_api_key', value)}
                      error={inputProps('web_search_api_key').error}
                    />
                  )}
                </Stack>
              </Card>
            )}
          </Stack>
        </Fieldset>
        <Group justify="flex-end" mt="md">
          <Button component={Link} to="/organizations" variant="default">
            {t(readOnly ? 'settings.back' : 'settings.cancel')}
          </Button>
          {!readOnly && (
            <Button type="submit" loading={save.isPending} disabled={upload.isPending} data-testid="organization-save">
              {t('settings.save')}
            </Button>
          )}
        </Group>
      </form>
      {organization?.abilities.update && <OrganizationSsoCard organizationId={organization.organization_id} />}
      {organization && <DeleteOrganizationModal organization={organization} opened={deleting} onClose={() => setDeleting(false)} />}
    </Stack>
  );
}
