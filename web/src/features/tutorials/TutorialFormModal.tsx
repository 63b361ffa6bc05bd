// New / Edit tutorial (staff admins; issue 15 item 5): name, description, language, the video link (YouTube,
// Vimeo or a video file's address) and a thumbnail — an image address, or an image uploaded as public.
// Checked in the browser with the API's own schema; the server's field messages land under the fields.
import { Button, FileInput, Group, Image, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { createTutorialRequest, TUTORIAL_DESCRIPTION_MAX, TUTORIAL_NAME_MAX, type Tutorial, type TutorialLanguage } from '@pluma/common/tutorials';
import { IconPhoto } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/api-error';
import { showSuccess } from '../../ui/alerts';
import { formRules } from '../../ui/form-rules';
import { Modal } from '../../ui/Modal';
import { useLocalizedInputProps } from '../../ui/screen-text';
import { useErrorHandler } from '../../ui/use-error-handler';
import { saveTutorial, TUTORIALS_KEY, uploadThumbnail } from './tutorials-api';

interface Props {
  /** The tutorial being edited, 'new' to create one, null when closed. */
  tutorial: Tutorial | 'new' | null;
  /** A new tutorial's language (the list's). */
  language: TutorialLanguage;
  onClose: () => void;
}

export function TutorialFormModal({ tutorial, language, onClose }: Props) {
  const { t } = useTranslation('tutorials');
  return (
    <Modal opened={tutorial !== null} onClose={onClose} size="lg" title={t(tutorial === 'new' ? 'form.createTitle' : 'form.editTitle')} data-testid="tutorial-form-modal">
      {tutorial !== null && <TutorialForm key={tutorial === 'new' ? 'new' : tutorial.tutorial_id} tutorial={tutorial === 'new' ? null : tutorial} language={language} onClose={onClose} />}
    </Modal>
  );
}

interface Values {
  name: string;
  description: string;
  language: TutorialLanguage;
  src: string;
  thumbnail: string;
  thumbnail_file_id: number | null;
}

const payload = (v: Values) => ({
  name: v.name,
  description: v.description,
  language: v.language,
  src: v.src,
  // An uploaded image is the thumbnail; otherwise the address ('' for none).
  thumbnail: v.thumbnail_file_id ? '' : v.thumbnail,
  thumbnail_file_id: v.thumbnail_file_id,
});

function TutorialForm({ tutorial, language, onClose }: { tutorial: Tutorial | null; language: TutorialLanguage; onClose: () => void }) {
  const { t } = useTranslation('tutorials');
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const form = useForm<Values>({
    initialValues: {
      name: tutorial?.name ?? '',
      description: tutorial?.description ?? '',
      language: tutorial?.language ?? language,
      src: tutorial?.src ?? '',
      thumbnail: tutorial && !tutorial.thumbnail_file_id ? (tutorial.thumbnail ?? '') : '',
      thumbnail_file_id: tutorial?.thumbnail_file_id ?? null,
    },
    validate: formRules<Values>({ schema: createTutorialRequest, payload }),
  });
  const inputProps = useLocalizedInputProps(form);
  const [uploaded, setUploaded] = useState<string | null>(tutorial?.thumbnail_file_id ? tutorial.thumbnail : null);

  const upload = useMutation({
    mutationFn: (file: File) => uploadThumbnail(file),
    onSuccess: (file) => {
      form.setFieldValue('thumbnail_file_id', file.file_id);
      setUploaded(file.src);
    },
    onError: (e) => handleError(e, { showValidation: true }),
  });
  const save = useMutation({
    mutationFn: (values: Values) => saveTutorial(tutorial?.tutorial_id ?? null, payload(values)),
    onSuccess: (saved) => {
      showSuccess(t('form.saved'));
      queryClient.setQueryData([...TUTORIALS_KEY, 'one', saved.tutorial_id], saved);
      void queryClient.invalidateQueries({ queryKey: TUTORIALS_KEY });
      onClose();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400 && error.body?.details) form.setErrors(error.body.details);
      else handleError(error, { showValidation: true });
    },
  });
  const removeUpload = () => {
    form.setFieldValue('thumbnail_file_id', null);
    setUploaded(null);
  };

  return (
    <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v))}>
      <Stack gap="md">
        <TextInput label={t('form.name')} required maxLength={TUTORIAL_NAME_MAX} data-autofocus {...inputProps('name')} data-testid="tutorial-name" />
        <Textarea label={t('form.description')} autosize minRows={2} maxRows={6} maxLength={TUTORIAL_DESCRIPTION_MAX} {...inputProps('description')} data-testid="tutorial-description-input" />
        <Select
          label={t('form.language')}
          required
          allowDeselect={false}
          data={[
            { value: 'en', label: t('language.en') },
            { value: 'es', label: t('language.es') },
          ]}
          {...inputProps('language')}
          data-testid="tutorial-language"
        />
        <TextInput label={t('form.src')} description={t('form.srcHint')} required type="url" placeholder="https://" {...inputProps('src')} data-testid="tutorial-src" />
        {uploaded ? (
          <Group align="flex-end" gap="sm">
            <Image src={uploaded} alt={t('form.thumbnailPreview')} h={72} w={128} fit="cover" radius="sm" />
            <Button variant="default" size="xs" onClick={removeUpload} data-testid="tutorial-thumbnail-remove">
              {t('form.removeThumbnail')}
            </Button>
          </Group>
        ) : (
          <>
            <TextInput label={t('form.thumbnail')} description={t('form.thumbnailHint')} type="url" placeholder="https://" {...inputProps('thumbnail')} data-testid="tutorial-thumbnail-url" />
            <FileInput
              label={t('form.thumbnailUpload')}
              accept="image/png,image/jpeg,image/gif,image/webp"
              leftSection={<IconPhoto size={16} aria-hidden />}
              placeholder={t('form.chooseImage')}
              onChange={(file) => file && upload.mutate(file)}
              disabled={upload.isPending}
              clearable={false}
              error={form.errors.thumbnail_file_id ? inputProps('thumbnail_file_id').error : undefined}
              data-testid="tutorial-thumbnail-file"
            />
          </>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={save.isPending}>
            {t('form.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} disabled={upload.isPending} data-testid="tutorial-save">
            {t('form.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
