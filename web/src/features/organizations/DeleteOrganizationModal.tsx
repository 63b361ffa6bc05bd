// Deleting an organization (spec part 2 §5): only when the exact name is typed, else the alert
// 'Organization name does not match. Deletion aborted.' (§8); the server checks the name again. Afterwards
// the context is Personal (§4 "Deleting an organization resets to the personal context named Personal").
import { Text, TextInput } from '@mantine/core';
import type { Organization } from '@pluma/common/organizations';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { showError, showSuccess } from '../../ui/alerts';
import { Modal } from '../../ui/Modal';
import { useErrorHandler } from '../../ui/use-error-handler';
import { switchOrganization } from './organization-context';
import { deletionConfirmed } from './organization-form';
import { deleteOrganization, ORGANIZATIONS_KEY } from './organizations-api';

interface Props {
  organization: Pick<Organization, 'organization_id' | 'name'>;
  opened: boolean;
  onClose: () => void;
}

export function DeleteOrganizationModal({ organization, opened, onClose }: Props) {
  const { t } = useTranslation('organizations');
  const [typed, setTyped] = useState('');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const handleError = useErrorHandler();
  const remove = useMutation({
    mutationFn: () => deleteOrganization(organization.organization_id, typed),
    onSuccess: () => {
      showSuccess(t('settings.deleted'));
      switchOrganization(queryClient, null);
      queryClient.removeQueries({ queryKey: ORGANIZATIONS_KEY });
      void navigate('/organizations');
    },
    onError: (e) => handleError(e, { showValidation: true }),
  });

  const confirm = () => {
    if (!deletionConfirmed(typed, organization.name)) {
      showError(t('settings.nameMismatch'));
      return;
    }
    remove.mutate();
  };

  return (
    <Modal
      opened={opened}
      onClose={() => {
        setTyped('');
        onClose();
      }}
      title={t('settings.deleteTitle')}
      onConfirm={confirm}
      confirmLabel={t('settings.delete')}
      confirmColor="red"
      confirmLoading={remove.isPending}
      data-testid="delete-organization-modal"
    >
      <Text size="sm">{t('settings.deleteWarning', { name: organization.name })}</Text>
      <TextInput label={t('settings.typeName')} value={typed} onChange={(e) => setTyped(e.currentTarget.value)} autoComplete="off" data-testid="delete-organization-name" />
    </Modal>
  );
}
