// /organization/admin-panel/new and /organization/admin-panel/{userId} (spec part 2 §2 "User form"): create
// when the id is not numeric, else edit (§4 save rule); on success back to /organization/admin-panel. Adding
// takes an existing user's email — it is invited and joins when it accepts (issue 30 item 12) — or a new one:
// a new account gets the password-recovery email (§4). Only
// the Admin may add or edit (§6); a failure shows the returned error (§8).
import { Alert, Button, Group, Select, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { addOrganizationUserRequest, USER_TYPE_IDS, type Organization } from '@pluma/common/organizations';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/api-error';
import { showSuccess } from '../../ui/alerts';
import { formRules } from '../../ui/form-rules';
import { PageHeader } from '../../ui/PageHeader';
import { screenText, useLocalizedInputProps } from '../../ui/screen-text';
import { useErrorHandler } from '../../ui/use-error-handler';
import { WithActiveOrganization } from './ActiveOrganization';
import { addOrganizationUser, membersKey, updateOrganizationUser, useOrganizationUser } from './organizations-api';
import { useBreadcrumbLabel } from '../../platform/shell/breadcrumb-labels';

interface Values {
  email: string;
  name: string;
  last_name: string;
  user_type_id: string;
}

export default function MemberFormPage() {
  return <WithActiveOrganization>{(organization) => <MemberForm organization={organization} />}</WithActiveOrganization>;
}

function MemberForm({ organization }: { organization: Organization }) {
  const { t } = useTranslation('organizations');
  const param = useParams().userId ?? 'new';
  // spec part 2 §4: an id that is not numeric means create.
  const userId = /^\d+$/.test(param) ? Number(param) : null;
  const organizationId = organization.organization_id;
  const existing = useOrganizationUser(organizationId, userId);
  useBreadcrumbLabel(`/organization/admin-panel/${param}`, existing.data ? existing.data.name || existing.data.email : t('member.crumb'));
  if (!organization.abilities.manage_users)
    return (
      <Alert color="yellow" data-testid="member-form-refused">
        {t('members.adminOnly')}
      </Alert>
    );
  if (userId !== null && existing.isPending) return <Skeleton height={240} data-testid="member-form-loading" />;
  if (userId !== null && existing.isError)
    return (
      <Alert color="red" role="alert" data-testid="member-form-error">
        {screenText({ failure: existing.error }, t) ?? t('members.loadError')}
      </Alert>
    );
  const member = existing.data ?? null;
  return (
    <MemberFormFields
      key={member?.user_id ?? 'new'}
      organizationId={organizationId}
      member={member && { user_id: member.user_id, email: member.email, name: `${member.name} ${member.last_name}`.trim(), user_type_id: member.user_type_id }}
    />
  );
}

const ROLE_IDS = [USER_TYPE_IDS.admin, USER_TYPE_IDS.manager, USER_TYPE_IDS.member] as const;
const ROLE_OF = { 1: 'admin', 2: 'manager', 3: 'member' } as const;

function MemberFormFields({ organizationId, member }: { organizationId: number; member: { user_id: number; email: string; name: string; user_type_id: number } | null }) {
  const { t } = useTranslation('organizations');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const payload = (v: Values) => ({
    organization_id: organizationId,
    email: v.email,
    ...(v.name.trim() ? { name: v.name } : {}),
    ...(v.last_name.trim() ? { last_name: v.last_name } : {}),
    user_type_id: Number(v.user_type_id) as 1 | 2 | 3,
  });
  const form = useForm<Values>({
    initialValues: { email: member?.email ?? '', name: '', last_name: '', user_type_id: String(member?.user_type_id ?? USER_TYPE_IDS.member) },
    // Editing changes the role only; adding checks what the server checks.
    validate: member ? undefined : formRules<Values>({ schema: addOrganizationUserRequest, payload, required: { email: 'validation.email_required' } }),
  });
  const inputProps = useLocalizedInputProps(form);

  const save = useMutation({
    mutationFn: (v: Values) =>
      member
        ? updateOrganizationUser({ organization_id: organizationId, user_id: member.user_id, user_type_id: Number(v.user_type_id) as 1 | 2 | 3 })
        : addOrganizationUser(payload(v)),
    onSuccess: (saved) => {
      showSuccess(
        member
          ? t('members.saved')
          : saved.pending
            ? t('members.invitationSent', { email: saved.user.email })
            : saved.invited
              ? t('members.invited', { email: saved.user.email })
              : t('members.added', { email: saved.user.email }),
      );
      // The table and the pending invitations (both under the members key).
      void queryClient.invalidateQueries({ queryKey: membersKey(organizationId) });
      void navigate('/organization/admin-panel');
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400 && error.body?.details) form.setErrors(error.body.details);
      // spec part 2 §8: failures of the add or update flow show an alert of the returned error.
      else handleError(error, { showValidation: true });
    },
  });

  return (
    <Stack maw={560} data-testid="member-form">
      <PageHeader title={t(member ? 'members.editTitle' : 'members.addTitle')} description={member ? `${member.name} · ${member.email}` : t('members.addHelp')} />
      <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v))}>
        <Stack gap="sm">
          {member ? (
            <Text size="sm" data-testid="member-form-email">
              {member.email}
            </Text>
          ) : (
            <>
              <TextInput label={t('members.email')} type="email" required {...inputProps('email')} data-testid="member-email" />
              <Group grow align="flex-start">
                <TextInput label={t('members.name')} {...inputProps('name')} data-testid="member-name" />
                <TextInput label={t('members.lastName')} {...inputProps('last_name')} data-testid="member-last-name" />
              </Group>
            </>
          )}
          <Select
            label={t('members.columns.role')}
            data={ROLE_IDS.map((id) => ({ value: String(id), label: t(`roles.${ROLE_OF[id]}`) }))}
            allowDeselect={false}
            {...inputProps('user_type_id')}
            data-testid="member-role"
          />
          <Group justify="flex-end" mt="sm">
            <Button component={Link} to="/organization/admin-panel" variant="default">
              {t('settings.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending} data-testid="member-save">
              {t('settings.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
