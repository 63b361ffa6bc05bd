// The generator form (spec part 2 §2 "Chat widget generator"): the user's avatars (searchable), the widget
// name, the accent colour as a text box plus a picker (default #ff0000), an optional button image with a
// preview, and the allowed websites (deny by default). 'Generate Chat Widget' creates it (POST), or saves
// the widget being edited (PUT); every change to an input tells the page, which hides the shown code. With no
// allowed website the widget would answer nowhere: Generate first says so (issue 30 item 4) and saves only
// on 'Generate anyway'.
import { Alert, Button, Card, FileInput, Group, Image, Select, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconPhoto } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useDebouncedValue } from '@mantine/hooks';
import { SEARCH_DEBOUNCE_MS } from '@pluma/common/constants';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/api-error';
import { showError } from '../../ui/alerts';
import { useErrorHandler } from '../../ui/use-error-handler';
import { parseOrigins } from './origins';
import { answersNowhere, fieldOfDetail, firstProblem, isWidgetImage, normalizeAccent, WIDGET_IMAGE_ACCEPT, type WidgetField, type WidgetFormValues } from './widget-form-rules';
import { DEFAULT_WIDGET_ACCENT, WIDGET_NAME_MAX, type Widget } from '@pluma/common/widgets';
import { saveWidget, useWidgetAvatars } from './widgets-api';

interface WidgetFormProps {
  /** The widget being edited, or null for a new one. */
  widget: Widget | null;
  onSaved: (widget: Widget) => void;
  /** Any input changed (the spec: the snippet hides again). */
  onInput: () => void;
  onCancelEdit: () => void;
}

const initialValues = (widget: Widget | null): WidgetFormValues => ({
  avatarId: widget ? String(widget.avatar_id) : null,
  name: widget?.name ?? '',
  accent: widget?.accent_color ?? DEFAULT_WIDGET_ACCENT,
  origins: widget?.allowed_origins.join('\n') ?? '',
});

/** A local preview of the chosen image, read as a data URL (nothing to release; a stale read is ignored). */
function usePreview(file: File | null): string | null {
  const [read, setRead] = useState<{ file: File; url: string } | null>(null);
  useEffect(() => {
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => typeof reader.result === 'string' && setRead({ file, url: reader.result });
    reader.readAsDataURL(file);
    return () => reader.abort();
  }, [file]);
  return read && read.file === file ? read.url : null;
}

export function WidgetForm({ widget, onSaved, onInput, onCancelEdit }: WidgetFormProps) {
  const { t } = useTranslation('widgets');
  const handleError = useErrorHandler();
  const [values, setValues] = useState<WidgetFormValues>(() => initialValues(widget));
  const [avatarSearch, setAvatarSearch] = useState(widget?.avatar_name ?? '');
  const [avatarLabel, setAvatarLabel] = useState(widget?.avatar_name ?? '');
  // The chosen avatar's own name in the box is not a search.
  const [avatarQuery] = useDebouncedValue(avatarSearch.trim() === avatarLabel ? '' : avatarSearch.trim(), SEARCH_DEBOUNCE_MS);
  const avatars = useWidgetAvatars(avatarQuery);
  const [image, setImage] = useState<File | null>(null);
  const [removeImage, setRemoveImage] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<WidgetField, string>>>({});
  /** Generate was asked with no allowed website: the warning waits for 'Generate anyway' or a website. */
  const [nowhereAsked, setNowhereAsked] = useState(false);
  const preview = usePreview(image);
  const avatarRef = useRef<HTMLInputElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const accentRef = useRef<HTMLInputElement>(null);
  const originsRef = useRef<HTMLTextAreaElement>(null);
  const imageRef = useRef<HTMLButtonElement>(null);
  const focus = (field: WidgetField) => ({ avatar: avatarRef, name: nameRef, accent: accentRef, origins: originsRef, image: imageRef })[field].current?.focus();

  const change = <K extends keyof WidgetFormValues>(key: K, value: WidgetFormValues[K], field: WidgetField) => {
    setValues((old) => ({ ...old, [key]: value }));
    setErrors((old) => ({ ...old, [field]: undefined }));
    if (field === 'origins') setNowhereAsked(false);
    onInput();
  };

  const save = useMutation({
    mutationFn: () => {
      const input = {
        avatar_id: Number(values.avatarId),
        name: values.name.trim(),
        accent_color: normalizeAccent(values.accent)!,
        allowed_origins: parseOrigins(values.origins).origins,
        // Editing: the current button image goes when the owner removed it and chose no other.
        ...(widget && removeImage && !image ? { remove_image: true } : {}),
      };
      return saveWidget(widget?.widget_id ?? null, input, image);
    },
    onSuccess: (saved) => {
      setImage(null);
      setRemoveImage(false);
      onSaved(saved);
    },
    onError: (error) => {
      const details = error instanceof ApiError && error.status === 400 ? Object.entries(error.details) : [];
      const mapped = details.flatMap(([key, message]) => {
        const field = fieldOfDetail(key);
        return field ? [[field, message] as const] : [];
      });
      if (mapped.length > 0) {
        // The server's own words on the fields it refused (e.g. a website it does not accept).
        setErrors(Object.fromEntries(mapped));
        focus(mapped[0][0]);
      } else handleError(error, { showValidation: true });
    },
  });

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const problem = firstProblem(values) ?? (image && !isWidgetImage(image) ? { field: 'image' as const, key: 'errors.imageType' } : null);
    if (problem) {
      const message = t(problem.key, problem.params);
      setErrors({ [problem.field]: message });
      // spec §8 lists these as alerts: announced, and the field says it too.
      showError(message);
      focus(problem.field);
      return;
    }
    setErrors({});
    if (answersNowhere(values) && !nowhereAsked) {
      setNowhereAsked(true);
      focus('origins');
      return;
    }
    save.mutate();
  };
  const nowhereWarning = nowhereAsked && answersNowhere(values);

  const accent = normalizeAccent(values.accent) ?? DEFAULT_WIDGET_ACCENT;
  const avatarOptions = (avatars.data?.avatars ?? []).map((a) => ({ value: String(a.avatar_id), label: a.name }));
  // The chosen avatar stays offered while a search (or the first page) does not include it.
  if (values.avatarId && !avatarOptions.some((o) => o.value === values.avatarId)) avatarOptions.unshift({ value: values.avatarId, label: avatarLabel });

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="widget-form-title" data-testid="widget-form">
      <form noValidate onSubmit={submit}>
        <Stack gap="md">
          <Title order={2} size="h4" id="widget-form-title">
            {widget ? t('form.editTitle', { name: widget.name }) : t('form.newTitle')}
          </Title>
          {avatars.isError && (
            <Alert color="red" role="alert">
              {t('form.avatarsFailed')}
            </Alert>
          )}
          <Select
            ref={avatarRef}
            label={t('form.avatar')}
            placeholder={t('form.avatarPlaceholder')}
            required
            searchable
            nothingFoundMessage={t('form.noAvatars')}
            data={avatarOptions}
            value={values.avatarId}
            onChange={(value, option) => {
              setAvatarLabel(option?.label ?? '');
              change('avatarId', value, 'avatar');
            }}
            searchValue={avatarSearch}
            onSearchChange={setAvatarSearch}
            error={errors.avatar}
            data-testid="widget-avatar"
          />
          <TextInput
            ref={nameRef}
            label={t('form.name')}
            placeholder={t('form.namePlaceholder')}
            required
            maxLength={WIDGET_NAME_MAX}
            value={values.name}
            onChange={(event) => change('name', event.currentTarget.value, 'name')}
            error={errors.name}
            data-testid="widget-name"
          />
          <TextInput
            ref={accentRef}
            label={t('form.accent')}
            description={t('form.accentHint')}
            value={values.accent}
            onChange={(event) => change('accent', event.currentTarget.value, 'accent')}
            error={errors.accent}
            rightSectionWidth={44}
            rightSectionPointerEvents="all"
            rightSection={
              <input
                type="color"
                aria-label={t('form.pickColour')}
                value={accent}
                onChange={(event) => change('accent', event.currentTarget.value, 'accent')}
                style={{ width: 28, height: 28, padding: 0, border: 'none', background: 'none', cursor: 'pointer' }}
                data-testid="widget-accent-picker"
              />
            }
            data-testid="widget-accent"
          />
          {widget?.image_url && !image && !removeImage && (
            <Group gap="sm" align="center">
              <Image src={widget.image_url} alt={t('form.currentImage')} h={48} w={48} fit="contain" radius="sm" />
              <Button
                variant="subtle"
                color="red"
                size="xs"
                onClick={() => {
                  setRemoveImage(true);
                  onInput();
                }}
                data-testid="widget-remove-image"
              >
                {t('form.removeImage')}
              </Button>
            </Group>
          )}
          <FileInput
            ref={imageRef}
            label={t('form.image')}
            description={t('form.imageHint')}
            accept={WIDGET_IMAGE_ACCEPT}
            leftSection={<IconPhoto size={16} aria-hidden />}
            // No placeholder: Mantine draws a file input's placeholder in a colour too light to read (axe).
            value={image}
            onChange={(file) => {
              setImage(file);
              setErrors((old) => ({ ...old, image: undefined }));
              onInput();
            }}
            error={errors.image}
            clearable
            data-testid="widget-image"
          />
          {preview && <Image src={preview} alt={t('form.imagePreview')} h={48} w={48} fit="contain" radius="sm" data-testid="widget-image-preview" />}
          <Textarea
            ref={originsRef}
            label={t('form.origins')}
            description={t('form.originsHint')}
            placeholder={t('form.originsPlaceholder')}
            autosize
            minRows={2}
            maxRows={8}
            value={values.origins}
            onChange={(event) => change('origins', event.currentTarget.value, 'origins')}
            error={errors.origins}
            data-testid="widget-origins"
          />
          {nowhereWarning && (
            <Alert color="orange" role="alert" icon={<IconAlertTriangle size={18} aria-hidden />} title={t('form.nowhereTitle')} data-testid="widget-nowhere-warning">
              <Stack gap="xs" align="flex-start">
                {t('form.nowhereText')}
                <Button size="xs" variant="light" color="orange" onClick={() => save.mutate()} loading={save.isPending} data-testid="widget-generate-anyway">
                  {widget ? t('form.saveAnyway') : t('form.generateAnyway')}
                </Button>
              </Stack>
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            {widget && (
              <Button variant="default" onClick={onCancelEdit} disabled={save.isPending} data-testid="widget-cancel-edit">
                {t('form.cancelEdit')}
              </Button>
            )}
            <Button type="submit" loading={save.isPending} data-testid="widget-generate">
              {widget ? t('form.save') : t('form.generate')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
