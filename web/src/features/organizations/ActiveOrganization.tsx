// The pages under /organization/... act in the active organization (spec part 2 §2): in Personal they ask
// the user to choose one; while its record (role, abilities) loads they show a placeholder.
import { Alert, Anchor, Skeleton } from '@mantine/core';
import type { Organization } from '@pluma/common/organizations';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useActiveOrganization } from '../../api/organization';
import { useCurrentUser } from '../../platform/session/session-context';
import { SecondFactorRequiredPage } from '../auth';
import { useActiveOrganizationQuery } from './organizations-api';

export function WithActiveOrganization({ children }: { children: (organization: Organization) => ReactNode }) {
  const { t } = useTranslation('organizations');
  const active = useActiveOrganization();
  const { record, failed } = useActiveOrganizationQuery();
  const user = useCurrentUser();
  if (!active)
    return (
      <Alert color="blue" data-testid="choose-organization">
        {t('choose.body')}{' '}
        <Anchor component={Link} to="/organizations">
          {t('choose.link')}
        </Anchor>
      </Alert>
    );
  if (!record && failed)
    return (
      <Alert color="red" role="alert" data-testid="organization-load-error">
        {t('loadFailed')}
      </Alert>
    );
  if (!record) return <Skeleton height={240} data-testid="organization-loading" />;
  if (awaitsSecondFactor(record, user.two_factor.verified)) return <SecondFactorRequiredPage reason="organization" />;
  return children(record);
}

/** Issue 33: the organization requires a second factor of its Admins and this sign-in has not passed one (the API says two_factor_required). */
export const awaitsSecondFactor = (organization: Organization, verified: boolean) => organization.require_two_factor_admins && organization.role === 'admin' && !verified;
