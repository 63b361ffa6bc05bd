// /organization/admin-panel/users/{userId} (spec part 2 §2 "User detail"): the customer card (the back
// office's), Delete User (from this organization, with the §5 warning), the password-recovery buttons
// (send email; generate link for staff — it opens the member's whole account), Total Words, Last use.
import { Badge, Button, Skeleton, Stack } from '@mantine/core';
import type { Organization } from '@pluma/common/organizations';
import { IconKey, IconMail, IconTrash } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { useCurrentUser } from '../../platform/session/session-context';
import { showSuccess } from '../../ui/alerts';
import { copyToClipboard } from '../../ui/clipboard';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { screenText } from '../../ui/screen-text';
import { useErrorHandler } from '../../ui/use-error-handler';
import { CustomerCard, CustomerField, formatDateTime, formatMoney, formatNumber } from '../admin-users';
import { WithActiveOrganization } from './ActiveOrganization';
import { createMemberResetLink, sendMemberRecoveryEmail, useOrganizationUser } from './organizations-api';
import { RemoveMemberModal } from './RemoveMemberModal';
import { useBreadcrumbLabel } from '../../platform/shell/breadcrumb-labels';

export default function MemberPage() {
  return <WithActiveOrganization>{(organization) => <MemberDetail organization={organization} />}</WithActiveOrganization>;
}

function MemberDetail({ organization }: { organization: Organization }) {
  const { t, i18n } = useTranslation('organizations');
  const lang = i18n.language;
  const me = useCurrentUser();
  const navigate = useNavigate();
  const handleError = useErrorHandler();
  const param = useParams().userId ?? '';
  const userId = /^\d+$/.test(param) ? Number(param) : null;
  const organizationId = organization.organization_id;
  const member = useOrganizationUser(organizationId, userId);
  const { pathname } = useLocation();
  useBreadcrumbLabel(pathname, member.data ? `${member.data.name} ${member.data.last_name}`.trim() || member.data.email : t('member.crumb'));
  const [removing, setRemoving] = useState(false);
  const isAdmin = organization.abilities.manage_users;

  const recovery = useMutation({
    mutationFn: (id: number) => sendMemberRecoveryEmail(organizationId, id),
    onSuccess: () => showSuccess(t('member.recoverySent')),
    onError: (e) => handleError(e),
  });
  const resetLink = useMutation({
    mutationFn: (id: number) => createMemberResetLink(organizationId, id),
    onSuccess: ({ link }) => void copyToClipboard(link, i18n.t('clipboard.linkCopied')),
    onError: (e) => handleError(e),
  });

  if (userId === null || member.isError)
    return <LoadErrorAlert text={screenText({ failure: member.error }, t) ?? t('members.loadError')} data-testid="member-error" />;
  if (member.isPending) return <Skeleton height={200} data-testid="member-loading" />;
  const m = member.data;
  const name = `${m.name} ${m.last_name}`.trim() || m.email;

  return (
    <Stack gap="lg" data-testid="member-page">
      <PageHeader
        title={name}
        description={organization.name}
        actions={
          isAdmin && (
            <Button color="red" variant="light" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setRemoving(true)} data-testid="delete-member">
              {t('member.delete')}
            </Button>
          )
        }
      />
      <CustomerCard
        name={name}
        picture={m.picture}
        badge={<Badge>{t(`roles.${m.role}`)}</Badge>}
        actions={
          isAdmin && (
            <>
              <Button variant="light" leftSection={<IconMail size={16} aria-hidden />} loading={recovery.isPending} onClick={() => recovery.mutate(m.user_id)} data-testid="member-send-recovery">
                {t('member.sendRecovery')}
              </Button>
              {me.staff && (
                <Button variant="light" leftSection={<IconKey size={16} aria-hidden />} loading={resetLink.isPending} onClick={() => resetLink.mutate(m.user_id)} data-testid="member-reset-link">
                  {t('member.resetLink')}
                </Button>
              )}
            </>
          )
        }
      >
        <CustomerField label={t('members.email')}>{m.email}</CustomerField>
        <CustomerField label={t('members.columns.totalWords')}>{formatNumber(m.total_words, lang)}</CustomerField>
        <CustomerField label={t('member.lastUse')}>{m.last_use ? formatDateTime(m.last_use, lang) : t('members.notUsed')}</CustomerField>
        <CustomerField label={t('members.columns.ltv')}>{formatMoney(m.ltv, lang)}</CustomerField>
        {m.groups.length > 0 && <CustomerField label={t('member.groups')}>{m.groups.map((g) => g.name).join(', ')}</CustomerField>}
      </CustomerCard>
      <RemoveMemberModal
        organizationId={organizationId}
        member={removing ? m : null}
        onClose={() => setRemoving(false)}
        onRemoved={() => void navigate('/organization/admin-panel')}
      />
    </Stack>
  );
}
