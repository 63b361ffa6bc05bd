// New / edit conversation (spec part 2 §5: name required; the tag input adds a tag when a comma is
// typed; §4: the model value 'Unset' is sent as null). Save rule: no id → POST, an id → PUT.
import { Button, Group, Select, Stack, TagsInput, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  CONVERSATION_MAX_TAGS,
  CONVERSATION_NAME_MAX,
  createConversationRequest,
  normalizeTags,
  updateConversationRequest,
  type Conversation,
} from '@pluma/common/conversations';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error';
import { useActiveOrganization } from '../../api/organization';
import { formRules } from '../../ui/form-rules';
import { Modal } from '../../ui/Modal';
import { useLocalizedInputProps } from '../../ui/screen-text';
import { useErrorHandler } from '../../ui/use-error-handler';
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

interface ConversationValues {
  name: string;
  model: string;
  tags: string[];
}

/** The request the values make: spec part 2 §4, the model value 'Unset' is sent as null. */
const conversationFields = (values: ConversationValues) => ({ name: values.name.trim(), model: toModelValue(values.model), tags: normalizeTags(values.tags) });

// The server's schemas for creating and for editing (common/src/conversations.ts); an empty name keeps the
// spec's wording (spec part 2 §5). An edit's id is not a field: it is the server's to judge.
const required = { name: 'chat:form.nameRequired' };
const createRules = formRules<ConversationValues>({ schema: createConversationRequest, payload: conversationFields, required });
const updateRules = formRules<ConversationValues>({ schema: updateConversationRequest, payload: conversationFields, required });

function ConversationForm({ conversation, onCancel, onSaved }: { conversation: Conversation | null; onCancel: () => void; onSaved: ConversationFormModalProps['onSaved'] }) {
  const { t } = useTranslation('chat');
  const handleError = useErrorHandler();
  const organization = useActiveOrganization();
  const create = useCreateConversation();
  const update = useUpdateConversation();
  const modelOptions = useModelOptions(conversation?.model ?? null);
  const form = useForm<ConversationValues>({
    initialValues: { name: conversation?.name ?? '', model: conversation?.model ?? UNSET_MODEL, tags: normalizeTags(conversation?.tags ?? '') },
    validate: conversation ? updateRules : createRules,
  });
  const inputProps = useLocalizedInputProps(form);
  const saving = create.isPending || update.isPending;

  const submit = form.onSubmit((values) => {
    const fields = conversationFields(values);
    const onError = (error: unknown) => {
      // The server's per-field texts (already translated) go under their fields; anything else is an alert.
      const details = isApiError(error) && error.status === 400 ? error.details : {};
      if (details.name || details.tags) form.setErrors({ name: details.name, tags: details.tags });
      else handleError(error, { showValidation: true });
    };
    if (conversation) {
      update.mutate({ conversation_id: conversation.conversation_id, ...fields }, { onSuccess: (saved) => saved && onSaved(saved, false), onError });
    } else {
      create.mutate({ ...fields, organization_id: organization?.organization_id ?? null }, { onSuccess: (saved) => saved && onSaved(saved, true), onError });
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('form.name')}
          placeholder={t('form.namePlaceholder')}
          maxLength={CONVERSATION_NAME_MAX}
          required
          data-autofocus
          data-testid="conversation-name-input"
          {...inputProps('name')}
        />
        <Select label={t('form.model')} data={modelOptions} allowDeselect={false} {...inputProps('model')} />
        <TagsInput
          label={t('form.tags')}
          description={t('form.tagsHint')}
          placeholder={t('form.tagsPlaceholder')}
          {...inputProps('tags')}
          onChange={(next) => form.setFieldValue('tags', normalizeTags(next))}
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
