// Delete confirmation: the conversation and its messages go for good.
import { Text } from '@mantine/core';
import type { Conversation } from '@pluma/common/conversations';
import { useTranslation } from 'react-i18next';
import { showSuccess } from '../../ui/alerts';
import { Modal } from '../../ui/Modal';
import { useErrorHandler } from '../../ui/use-error-handler';
import { useDeleteConversation } from './conversations-api';

interface DeleteConversationModalProps {
  conversation: Conversation | null;
  onClose: () => void;
  onDeleted?: (conversation: Conversation) => void;
}

export function DeleteConversationModal({ conversation, onClose, onDeleted }: DeleteConversationModalProps) {
  const { t } = useTranslation('chat');
  const handleError = useErrorHandler();
  const remove = useDeleteConversation();
  const confirm = () => {
    if (!conversation) return;
    remove.mutate(conversation.conversation_id, {
      onSuccess: () => {
        showSuccess(t('list.deleted'));
        onClose();
        onDeleted?.(conversation);
      },
      onError: (error) => handleError(error),
    });
  };
  return (
    <Modal
      opened={conversation !== null}
      onClose={onClose}
      title={t('delete.title')}
      onConfirm={confirm}
      confirmLabel={t('delete.confirm')}
      cancelLabel={t('actions.cancel')}
      confirmColor="red"
      confirmLoading={remove.isPending}
      data-testid="delete-conversation-modal"
    >
      <Text>{t('delete.body', { name: conversation?.name ?? '' })}</Text>
    </Modal>
  );
}
