// New / edit conversation (spec part 2 §5: name required; the tag input adds a tag when a comma is
// typed; §4: the model value 'Unset' is sent as null). Save rule: no id → POST, an id → PUT.
import { Button, Group, Select, Stack, TagsInput, TextInput } from '@mantine/core';
import { CONVERSATION_MAX_TAGS, CONVERSATION_NAME_MAX, normalizeTags, type Conversation } from '@pluma/common/conversations';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useActiveOrganization } from '../../api/organization';
import { Modal } from '../../ui/Modal';
import { useErrorHandler } from '../../ui/use-error-handler';
import { isApiError } from '../../api/api-error';
import { useCreateConversation, useUpdateConversation } from './conversations-api';
import { useModelOptions } from './use-model-options';
import { toModelValue, UNSET_MODEL } from './models-api';

interface ConversationFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** Omitted: a new conversation. */
  conversation?: Conversation | null;
  onSaved: (conversation: Conversation, created: boolean) => void;
}

export function ConversationFormModal({ opened, onClose, conversation, onSaved }: ConversationFormModalProps) {
  const { t } = useTranslation('chat');
  return (
    <Modal opened={opened} onClose={onClose} title={conversation ? t('form.editTitle') : t('form.newTitle')} data-testid="conversation-form-modal">
      {/* Mounted only while open, so each opening starts from the conversation's saved values. */}
      {opened && <ConversationForm conversation={conversation ?? null} onCancel={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

function ConversationForm({ conversation, onCancel, onSaved }: { conversation: Conversation | null; onCancel: () => void; onSaved: ConversationFormModalProps['onSaved'] }) {
  const { t } = useTranslation('chat');
  const handleError = useErrorHandler();
  const organization = useActiveOrganization();
  const create = useCreateConversation();
  const update = useUpdateConversation();
  const modelOptions = useModelOptions(conversation?.model ?? null);
  const [name, setName] = useState(conversation?.name ?? '');
  const [model, setModel] = useState<string>(conversation?.model ?? UNSET_MODEL);
  const [tags, setTags] = useState<string[]>(normalizeTags(conversation?.tags ?? ''));
  const [nameError, setNameError] = useState<string | null>(null);
  const saving = create.isPending || update.isPending;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setNameError(t('form.nameRequired'));
      return;
    }
    const fields = { name: name.trim(), model: toModelValue(model), tags: normalizeTags(tags) };
    const onError = (error: unknown) => {
      // The server's per-field text (already translated) goes under the name when it is about the name.
      if (isApiError(error) && error.status === 400 && error.details.name) setNameError(error.details.name);
      else handleError(error, { showValidation: true });
    };
    if (conversation) {
      update.mutate({ conversation_id: conversation.conversation_id, ...fields }, { onSuccess: (saved) => saved && onSaved(saved, false), onError });
    } else {
      create.mutate({ ...fields, organization_id: organization?.organization_id ?? null }, { onSuccess: (saved) => saved && onSaved(saved, true), onError });
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('form.name')}
          placeholder={t('form.namePlaceholder')}
          value={name}
          onChange={(event) => {
            setName(event.currentTarget.value);
            setNameError(null);
          }}
          error={nameError}
          maxLength={CONVERSATION_NAME_MAX}
          required
          data-autofocus
          data-testid="conversation-name-input"
        />
        <Select label={t('form.model')} data={modelOptions} value={model} onChange={(value) => setModel(value ?? UNSET_MODEL)} allowDeselect={false} />
        <TagsInput
          label={t('form.tags')}
          description={t('form.tagsHint')}
          placeholder={t('form.tagsPlaceholder')}
          value={tags}
          onChange={(next) => setTags(normalizeTags(next))}
          splitChars={[',']}
          maxTags={CONVERSATION_MAX_TAGS}
          acceptValueOnBlur
          clearable
          data-testid="conversation-tags-input"
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={saving}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" loading={saving}>
            {conversation ? t('actions.save') : t('actions.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
