// The form of Convert to Avatar (ConvertToAvatar.tsx), loaded when first opened: the avatar's name (required)
// and the extracted block as its context ('The input can't be empty'), checked with the avatars' own schema;
// POST /avatars needs the user's own AI key: without it (409 ai_key_required) the prompt to add it shows.
import { Button, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { createAvatarRequest } from '@pluma/common/avatars';
import { useTranslation } from 'react-i18next';
import { formRules } from '../../ui/form-rules';
import { useLocalizedInputProps } from '../../ui/screen-text';
import { AiKeyPrompt, createAvatar, useNewAvatar } from '../avatars';

interface Values {
  name: string;
  context: string;
}

export function ConvertForm({ context, onClose }: { context: string; onClose: () => void }) {
  const { t } = useTranslation('chat');
  const form = useForm<Values>({
    initialValues: { name: '', context },
    validate: formRules<Values>({ schema: createAvatarRequest, payload: (v) => v }),
  });
  const inputProps = useLocalizedInputProps(form);
  const { mutation, keyMissing } = useNewAvatar({ form, call: (values: Values) => createAvatar(values), doneText: t('convert.created'), onClose });
  return (
    <form noValidate onSubmit={form.onSubmit((values) => mutation.mutate(values))}>
      <Stack gap="md">
        {keyMissing && <AiKeyPrompt />}
        <TextInput label={t('convert.name')} required data-autofocus {...inputProps('name')} data-testid="convert-name" />
        <Textarea label={t('convert.context')} description={t('convert.contextHint')} required autosize minRows={5} maxRows={14} {...inputProps('context')} data-testid="convert-context" />
        <Button type="submit" loading={mutation.isPending} data-testid="convert-submit">
          {t('convert.submit')}
        </Button>
      </Stack>
    </form>
  );
}
