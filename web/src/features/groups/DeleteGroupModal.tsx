// Deleting a group warns that it cannot be reversed (spec part 2 §5; §8 'Group deleted').
import type { Group } from '@pluma/common/groups';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { showSuccess } from '../../ui/alerts';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { useErrorHandler } from '../../ui/use-error-handler';
import { deleteGroup, GROUPS_KEY } from './groups-api';

interface Props {
  group: Pick<Group, 'group_id' | 'name'> | null;
  onClose: () => void;
  onDeleted?: () => void;
}

export function DeleteGroupModal({ group, onClose, onDeleted }: Props) {
  const { t } = useTranslation('groups');
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const remove = useMutation({
    mutationFn: (groupId: number) => deleteGroup(groupId),
    onSuccess: (_, groupId) => {
      showSuccess(t('delete.done'));
      queryClient.removeQueries({ queryKey: [...GROUPS_KEY, 'one', groupId] });
      void queryClient.invalidateQueries({ queryKey: GROUPS_KEY });
      onClose();
      onDeleted?.();
    },
    onError: (e) => handleError(e),
  });
  return (
    <ConfirmModal
      opened={group !== null}
      onClose={onClose}
      title={t('delete.title')}
      warning={t('delete.warning', { name: group?.name ?? '' })}
      onConfirm={() => group && remove.mutate(group.group_id)}
      confirmLabel={t('delete.confirm')}
      pending={remove.isPending}
      data-testid="delete-group-modal"
    />
  );
}
