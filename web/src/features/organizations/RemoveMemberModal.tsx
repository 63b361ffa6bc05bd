// Removing a user from the organization (spec part 2 §5: "user deletion warns data will be lost and cannot
// be undone"; §8 "User ... deleted from the organization"). Their account stays; the membership goes.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { showSuccess } from '../../ui/alerts';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { useErrorHandler } from '../../ui/use-error-handler';
import { membersKey, removeOrganizationUser } from './organizations-api';

interface Props {
  organizationId: number;
  member: { user_id: number; name: string; last_name: string; email: string } | null;
  onClose: () => void;
  onRemoved?: () => void;
}

export function RemoveMemberModal({ organizationId, member, onClose, onRemoved }: Props) {
  const { t } = useTranslation('organizations');
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const remove = useMutation({
    mutationFn: (userId: number) => removeOrganizationUser(organizationId, userId),
    onSuccess: () => {
      showSuccess(t('members.removed'));
      void queryClient.invalidateQueries({ queryKey: membersKey(organizationId) });
      onClose();
      onRemoved?.();
    },
    onError: (e) => handleError(e, { showValidation: true }),
  });
  const name = member ? `${member.name} ${member.last_name}`.trim() || member.email : '';
  return (
    <ConfirmModal
      opened={member !== null}
      onClose={onClose}
      title={t('members.removeTitle')}
      warning={t('members.removeWarning', { name })}
      onConfirm={() => member && remove.mutate(member.user_id)}
      confirmLabel={t('members.remove')}
      pending={remove.isPending}
      data-testid="remove-member-modal"
    />
  );
}
