// Create or rename a group (spec part 2 §2 "Create Group", edit icon; §4 save rule; §8 'Group saved').
import { Button, Group as Row, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { createGroupRequest, type Group } from '@pluma/common/groups';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/api-error';
import { showSuccess } from '../../ui/alerts';
import { formRules } from '../../ui/form-rules';
import { Modal } from '../../ui/Modal';
import { useLocalizedInputProps } from '../../ui/screen-text';
import { useErrorHandler } from '../../ui/use-error-handler';
import { GROUPS_KEY, saveGroup } from './groups-api';

interface Props {
  organizationId: number;
  /** The group being renamed, 'new' to create one, null when closed. */
  group: Pick<Group, 'group_id' | 'name'> | 'new' | null;
  onClose: () => void;
}

export function GroupFormModal({ organizationId, group, onClose }: Props) {
  const { t } = useTranslation('groups');
  return (
    <Modal opened={group !== null} onClose={onClose} title={t(group === 'new' ? 'form.createTitle' : 'form.editTitle')} data-testid="group-form-modal">
      {group !== null && <GroupForm key={group === 'new' ? 'new' : group.group_id} organizationId={organizationId} group={group === 'new' ? null : group} onClose={onClose} />}
    </Modal>
  );
}

function GroupForm({ organizationId, group, onClose }: { organizationId: number; group: Pick<Group, 'group_id' | 'name'> | null; onClose: () => void }) {
  const { t } = useTranslation('groups');
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const form = useForm({
    initialValues: { name: group?.name ?? '' },
    validate: formRules<{ name: string }>({ schema: createGroupRequest, payload: (v) => ({ name: v.name, organization_id: organizationId }) }),
  });
  const inputProps = useLocalizedInputProps(form);
  const save = useMutation({
    mutationFn: (name: string) => saveGroup(group?.group_id ?? null, { name, organization_id: organizationId }),
    onSuccess: () => {
      showSuccess(t('form.saved'));
      void queryClient.invalidateQueries({ queryKey: GROUPS_KEY });
      onClose();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400 && error.body?.details) form.setErrors(error.body.details);
      else handleError(error, { showValidation: true });
    },
  });
  return (
    <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v.name))}>
      <Stack gap="md">
        <TextInput label={t('form.name')} required data-autofocus {...inputProps('name')} data-testid="group-name" />
        <Row justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={save.isPending}>
            {t('form.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="group-save">
            {t('form.save')}
          </Button>
        </Row>
      </Stack>
    </form>
  );
}
