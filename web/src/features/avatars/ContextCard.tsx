// The avatar's context card (spec part 2 §2): the context, Edit for whoever may change it ('The input can't
// be empty', §5), and the public toggle for admins only (§6). A reader of a public avatar sees it read-only.
import { Button, Card, Group, Stack, Switch, Text, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { addContextRequest, type AvatarWithFiles } from '@pluma/common/avatars';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSuccess } from '../../ui/alerts';
import { formRules } from '../../ui/form-rules';
import { useLocalizedInputProps } from '../../ui/screen-text';
import { AVATARS_KEY, avatarKey, updateAvatar } from './avatars-api';
import { useAvatarErrors } from './use-avatar-errors';

export function ContextCard({ avatar }: { avatar: AvatarWithFiles }) {
  const { t } = useTranslation('avatars');
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const form = useForm({
    initialValues: { context: avatar.context },
    validate: formRules<{ context: string }>({ schema: addContextRequest }),
  });
  const inputProps = useLocalizedInputProps(form);
  const onError = useAvatarErrors({ onFieldErrors: (details) => form.setErrors(details) });
  const saved = (next: AvatarWithFiles) => {
    queryClient.setQueryData(avatarKey(avatar.avatar_id), next);
    void queryClient.invalidateQueries({ queryKey: AVATARS_KEY });
    showSuccess(t('form.saved'));
  };
  const save = useMutation({
    mutationFn: (context: string) => updateAvatar({ avatar_id: avatar.avatar_id, context }),
    onSuccess: (next) => {
      saved(next);
      setEditing(false);
    },
    onError,
  });
  const publish = useMutation({ mutationFn: (value: boolean) => updateAvatar({ avatar_id: avatar.avatar_id, public: value }), onSuccess: saved, onError });

  return (
    <Card withBorder radius="md" padding="lg" data-testid="context-card">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h4">
            {t('page.context')}
          </Title>
          {avatar.abilities.update && !editing && (
            <Button
              size="xs"
              variant="default"
              onClick={() => {
                form.setValues({ context: avatar.context });
                setEditing(true);
              }}
              data-testid="edit-context"
            >
              {t('page.edit')}
            </Button>
          )}
        </Group>
        {editing ? (
          <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v.context))}>
            <Stack gap="sm">
              <Textarea aria-label={t('page.context')} autosize minRows={5} maxRows={20} data-autofocus {...inputProps('context')} data-testid="context-input" />
              <Group justify="flex-end" gap="sm">
                <Button variant="default" onClick={() => setEditing(false)} disabled={save.isPending}>
                  {t('form.cancel')}
                </Button>
                <Button type="submit" loading={save.isPending} data-testid="save-context">
                  {t('form.save')}
                </Button>
              </Group>
            </Stack>
          </form>
        ) : (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="context-text">
            {/* The saved text at once (the page's copy of the avatar follows a moment later). */}
            {save.data?.context ?? avatar.context}
          </Text>
        )}
        {avatar.abilities.publish && (
          <Switch
            label={t('page.public')}
            checked={avatar.public}
            disabled={publish.isPending}
            onChange={(event) => publish.mutate(event.currentTarget.checked)}
            data-testid="public-toggle"
          />
        )}
      </Stack>
    </Card>
  );
}
