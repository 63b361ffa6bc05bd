// Combine this avatar with another into a new avatar (spec part 2 §7 POST /avatars/combine), then open it
// (spec part 2 §2 "Targets: /avatars/{avatar_id} (after a combine)").
import { Button, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { combineAvatarsRequest, type Avatar } from '@pluma/common/avatars';
import { useTranslation } from 'react-i18next';
import { formRules } from '../../ui/form-rules';
import { Modal } from '../../ui/Modal';
import { useLocalizedInputProps } from '../../ui/screen-text';
import { AiKeyPrompt } from './AiKeyPrompt';
import { combineAvatars, useAvatars } from './avatars-api';
import { useNewAvatar } from './use-new-avatar';

export function CombineModal({ avatar, opened, onClose }: { avatar: Avatar; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('avatars');
  return (
    <Modal opened={opened} onClose={onClose} title={t('combine.title')} data-testid="combine-modal">
      {opened && <CombineForm avatar={avatar} onClose={onClose} />}
    </Modal>
  );
}

interface Values {
  other: string;
  name: string;
}

function CombineForm({ avatar, onClose }: { avatar: Avatar; onClose: () => void }) {
  const { t } = useTranslation('avatars');
  const mine = useAvatars('mine', '');
  const others = (mine.data?.avatars ?? []).filter((a) => a.avatar_id !== avatar.avatar_id);
  const form = useForm<Values>({
    initialValues: { other: '', name: '' },
    validate: formRules<Values>({
      schema: combineAvatarsRequest,
      payload: (v) => ({ target_avatar_id: avatar.avatar_id, selected_avatar_id: Number(v.other) || 0, name: v.name }),
      fieldOf: { selected_avatar_id: 'other', name: 'name' },
    }),
  });
  const inputProps = useLocalizedInputProps(form);
  const { mutation: combine, keyMissing } = useNewAvatar({
    form,
    call: (v: Values) => combineAvatars(avatar.avatar_id, Number(v.other), v.name),
    doneText: t('combine.done'),
    onClose,
  });
  if (mine.isSuccess && others.length === 0) {
    return (
      <Text size="sm" data-testid="combine-none">
        {t('combine.none')}
      </Text>
    );
  }
  return (
    <form noValidate onSubmit={form.onSubmit((v) => combine.mutate(v))}>
      <Stack gap="md">
        {keyMissing && <AiKeyPrompt />}
        <Text size="sm" c="dimmed">
          {t('combine.note')}
        </Text>
        <NativeSelect
          label={t('combine.with')}
          required
          data={[{ value: '', label: '—' }, ...others.map((a) => ({ value: String(a.avatar_id), label: a.name }))]}
          {...inputProps('other')}
          data-testid="combine-with"
        />
        <TextInput label={t('combine.name')} required {...inputProps('name')} data-testid="combine-name" />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={combine.isPending}>
            {t('form.cancel')}
          </Button>
          <Button type="submit" loading={combine.isPending} data-testid="combine-submit">
            {t('combine.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
