// Clone an avatar (spec part 2 §5: name required): the copy gets the context and the files (their links;
// the files stay their owner's). Then the copy opens.
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { cloneAvatarRequest, type Avatar } from '@pluma/common/avatars';
import { useTranslation } from 'react-i18next';
import { formRules } from '../../ui/form-rules';
import { Modal } from '../../ui/Modal';
import { useLocalizedInputProps } from '../../ui/screen-text';
import { AiKeyPrompt } from './AiKeyPrompt';
import { cloneAvatar } from './avatars-api';
import { useNewAvatar } from './use-new-avatar';

export function CloneModal({ avatar, opened, onClose }: { avatar: Avatar; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('avatars');
  return (
    <Modal opened={opened} onClose={onClose} title={t('clone.title')} data-testid="clone-modal">
      {opened && <CloneForm avatar={avatar} onClose={onClose} />}
    </Modal>
  );
}

function CloneForm({ avatar, onClose }: { avatar: Avatar; onClose: () => void }) {
  const { t } = useTranslation('avatars');
  const form = useForm({
    initialValues: { name: '' },
    validate: formRules<{ name: string }>({ schema: cloneAvatarRequest, payload: (v) => ({ avatar_id: avatar.avatar_id, name: v.name }) }),
  });
  const inputProps = useLocalizedInputProps(form);
  const { mutation: clone, keyMissing } = useNewAvatar({ form, call: (name: string) => cloneAvatar(avatar.avatar_id, name), doneText: t('clone.done'), onClose });
  return (
    <form noValidate onSubmit={form.onSubmit((v) => clone.mutate(v.name))}>
      <Stack gap="md">
        {keyMissing && <AiKeyPrompt />}
        <Text size="sm" c="dimmed">
          {t('clone.note')}
        </Text>
        <TextInput label={t('clone.name')} required data-autofocus {...inputProps('name')} data-testid="clone-name" />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={clone.isPending}>
            {t('form.cancel')}
          </Button>
          <Button type="submit" loading={clone.isPending} data-testid="clone-submit">
            {t('clone.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
