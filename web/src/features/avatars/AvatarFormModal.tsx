// Add an avatar (spec part 2 §2 "/avatars list with search and add button"): name, description and context
// ('The input can't be empty', §5), checked with the same schema as the server. Without the user's own key
// the server refuses (409) and the form shows the prompt to add it in Settings, next to the Create button.
import { Button, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { createAvatarRequest } from '@pluma/common/avatars';
import { useTranslation } from 'react-i18next';
import { formRules } from '../../ui/form-rules';
import { Modal } from '../../ui/Modal';
import { useLocalizedInputProps } from '../../ui/screen-text';
import { AiKeyPrompt } from './AiKeyPrompt';
import { createAvatar } from './avatars-api';
import { useNewAvatar } from './use-new-avatar';

interface Values {
  name: string;
  description: string;
  context: string;
}

export function AvatarFormModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('avatars');
  return (
    <Modal opened={opened} onClose={onClose} title={t('form.createTitle')} size="lg" data-testid="avatar-form-modal">
      {opened && <AvatarForm onClose={onClose} />}
    </Modal>
  );
}

function AvatarForm({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('avatars');
  const form = useForm<Values>({
    initialValues: { name: '', description: '', context: '' },
    validate: formRules<Values>({ schema: createAvatarRequest, payload: (v) => v }),
  });
  const inputProps = useLocalizedInputProps(form);
  const { mutation: save, keyMissing } = useNewAvatar({ form, call: (values: Values) => createAvatar(values), doneText: t('form.created'), onClose });
  return (
    <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v))}>
      <Stack gap="md">
        <TextInput label={t('form.name')} required data-autofocus {...inputProps('name')} data-testid="avatar-name" />
        <TextInput label={t('form.description')} {...inputProps('description')} data-testid="avatar-description" />
        <Textarea label={t('form.context')} description={t('form.contextHint')} required autosize minRows={4} maxRows={12} {...inputProps('context')} data-testid="avatar-context" />
        {keyMissing && <AiKeyPrompt />}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={save.isPending}>
            {t('form.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="avatar-create">
            {t('form.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
