// /templates/create-template and /templates/edit-template/{id} (spec part 2 §2 "Template editor", §5
// "Template save", §6): name, description, the prompt with its fields regenerated live from the brackets
// (the one parser of common/, as the server checks it), language en/es, type and tags from the admin-managed
// lists, the public toggle (admins), Prompt / Editable / Show Prompt for the owner, staff or on create, and
// Delete with a confirmation. A failed save says 'Please complete all the required fields to save.'
import { Alert, Anchor, Badge, Button, Card, Group, MultiSelect, SegmentedControl, Select, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core';
import type { MessageKey } from '@pluma/common/messages';
import { checkTemplateDraft, parseTemplateFields } from '@pluma/common/rules/template-fields';
import { TEMPLATE_CONTENT_MAX, TEMPLATE_DESCRIPTION_MAX, TEMPLATE_MAX_TAGS, TEMPLATE_NAME_MAX, type Template, type TemplateField, type TemplateLanguage } from '@pluma/common/templates';
import { IconInfoCircle, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/api-error';
import { useActiveOrganization } from '../../api/organization';
import { useSession } from '../../platform/session/session-context';
import { showSuccess } from '../../ui/alerts';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { PageLoader } from '../../ui/PageLoader';
import { screenText } from '../../ui/screen-text';
import { useErrorHandler } from '../../ui/use-error-handler';
import { capitalise, useMessageText } from './field-text';
import { FieldsInfoModal } from './FieldsInfoModal';
import { createTemplate, deleteTemplate, TEMPLATES_KEY, templateKey, updateTemplate, useTemplate, useTemplateTags, useTemplateTypes } from './templates-api';

interface Draft {
  name: string;
  description: string;
  content: string;
  language: TemplateLanguage;
  type: string | null;
  tags: string[];
  public: boolean;
  editable: boolean;
  show_prompt: boolean;
}

const EMPTY_DRAFT: Draft = { name: '', description: '', content: '', language: 'en', type: null, tags: [], public: false, editable: false, show_prompt: false };

const draftOf = (template: Template): Draft => ({
  name: template.name,
  description: template.description,
  content: template.content ?? '',
  language: template.language,
  type: template.type,
  tags: template.tags,
  public: template.public,
  editable: template.editable,
  show_prompt: template.show_prompt,
});

export default function TemplateEditorPage() {
  const { templateId } = useParams();
  if (templateId === undefined) return <TemplateEditor template={null} />;
  const id = Number(templateId);
  if (!Number.isSafeInteger(id) || id <= 0) return <NotFound />;
  return <EditLoader key={id} id={id} />;
}

function EditLoader({ id }: { id: number }) {
  const { t } = useTranslation('templates');
  const template = useTemplate(id);
  if (template.error instanceof ApiError && template.error.status === 404) return <NotFound />;
  if (template.isError)
    return <LoadErrorAlert text={screenText({ failure: template.error }, t) ?? t('editor.loadError')} onRetry={() => void template.refetch()} retryLabel={t('retry')} data-testid="template-error" />;
  if (!template.data) return <PageLoader />;
  if (!template.data.abilities.edit) return <NotFound readOnly />;
  return <TemplateEditor template={template.data} />;
}

function NotFound({ readOnly = false }: { readOnly?: boolean }) {
  const { t } = useTranslation('templates');
  return (
    <Stack gap="sm" data-testid="template-not-found">
      <Text>{readOnly ? t('editor.notEditable') : t('editor.notFound')}</Text>
      <Anchor component={Link} to="/templates">
        {t('editor.backToList')}
      </Anchor>
    </Stack>
  );
}

function TemplateEditor({ template }: { template: Template | null }) {
  const { t } = useTranslation('templates');
  const messageText = useMessageText();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const organization = useActiveOrganization();
  const isStaffAdmin = useSession().user?.staff?.role === 'admin';
  const creating = template === null;
  // spec part 2 §2: Prompt, Editable and Show Prompt for the owner, staff, or on the create page; the public
  // toggle on an admin-type check only (§6).
  const canPrompt = creating || template.abilities.editPrompt;
  const canPublic = creating ? isStaffAdmin : template.abilities.setPublic;
  const promptHidden = !creating && template.content === null;
  const [draft, setDraft] = useState<Draft>(() => (template ? draftOf(template) : EMPTY_DRAFT));
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [deleting, setDeleting] = useState(false);
  const [infoOpen, setInfoOpen] = useState(false);
  const tags = useTemplateTags();
  const types = useTemplateTypes();

  // The fields, regenerated from the brackets as the prompt is typed (a hidden prompt: the server's fields).
  const parsed = useMemo(() => (promptHidden ? { fields: template?.fields ?? [], errors: [] } : parseTemplateFields(draft.content)), [draft.content, promptHidden, template]);
  const check = useMemo(() => {
    const result = checkTemplateDraft({ name: draft.name, description: draft.description, content: canPrompt ? draft.content : (template?.content ?? '') });
    if (canPrompt) return result.errors;
    // Only what this user may change is checked: the prompt is the owner's.
    const { name, description } = result.errors;
    return { ...(name ? { name } : {}), ...(description ? { description } : {}) };
  }, [draft, canPrompt, template]);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((current) => ({ ...current, [key]: value }));
    setServerErrors((current) => (key in current ? Object.fromEntries(Object.entries(current).filter(([k]) => k !== key)) : current));
  };
  const inputError = (key: 'name' | 'description' | 'content') => (serverErrors[key] ? serverErrors[key] : submitted && check[key] ? messageText(check[key]) : undefined);
  const invalid = Object.keys(check).length > 0;

  const saved = (next: Template) => {
    queryClient.setQueryData(templateKey(next.template_id), next);
    void queryClient.invalidateQueries({ queryKey: TEMPLATES_KEY });
    showSuccess(creating ? t('editor.created') : t('editor.saved'));
    void navigate('/templates');
  };
  const onError = (error: unknown) => {
    if (error instanceof ApiError && error.status === 400 && Object.keys(error.details).length > 0) setServerErrors(error.details);
    handleError(error, { showValidation: true });
  };
  const save = useMutation({
    mutationFn: () => {
      const common = { name: draft.name, description: draft.description, language: draft.language, type: draft.type, tags: draft.tags };
      const prompt = canPrompt ? { content: draft.content, editable: draft.editable, show_prompt: draft.show_prompt } : {};
      const publicFlag = canPublic ? { public: draft.public } : {};
      if (creating)
        return createTemplate({
          ...common,
          content: draft.content,
          editable: draft.editable,
          show_prompt: draft.show_prompt,
          ...publicFlag,
          organization_id: organization?.organization_id ?? null,
        });
      return updateTemplate({ template_id: template.template_id, ...common, ...prompt, ...publicFlag });
    },
    onSuccess: saved,
    onError,
  });
  const remove = useMutation({
    mutationFn: () => deleteTemplate(template?.template_id ?? 0),
    onSuccess: () => {
      showSuccess(t('editor.deleted'));
      void queryClient.invalidateQueries({ queryKey: TEMPLATES_KEY });
      void navigate('/templates');
    },
    onError: (error) => handleError(error),
  });

  const submit = () => {
    setSubmitted(true);
    if (invalid) return;
    save.mutate();
  };

  // The admin-managed lists, plus what the template already has (a name since removed stays visible).
  const typeOptions = [...new Set([...(types.data?.types ?? []).map((item) => item.name), ...(draft.type ? [draft.type] : [])])];
  const tagOptions = [...new Set([...(tags.data?.tags ?? []).map((item) => item.name), ...draft.tags])];

  return (
    <Stack gap="md" data-testid="template-editor">
      <PageHeader
        title={creating ? t('editor.createTitle') : t('editor.editTitle', { name: template.name })}
        description={t('editor.description')}
        actions={
          !creating &&
          template.abilities.delete && (
            <Button color="red" variant="light" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setDeleting(true)} data-testid="delete-template">
              {t('editor.delete')}
            </Button>
          )
        }
      />
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="md" maw={900}>
          <TextInput label={t('editor.name')} required maxLength={TEMPLATE_NAME_MAX} value={draft.name} onChange={(e) => set('name', e.currentTarget.value)} error={inputError('name')} data-testid="template-name-input" />
          <Textarea
            label={t('editor.descriptionLabel')}
            required
            autosize
            minRows={2}
            maxRows={5}
            maxLength={TEMPLATE_DESCRIPTION_MAX}
            value={draft.description}
            onChange={(e) => set('description', e.currentTarget.value)}
            error={inputError('description')}
            data-testid="template-description-input"
          />
          {promptHidden ? (
            <Alert variant="light" icon={<IconInfoCircle size={18} aria-hidden />} data-testid="prompt-hidden">
              {t('editor.promptHidden')}
            </Alert>
          ) : (
            <Textarea
              label={t('editor.prompt')}
              description={
                <>
                  {t('editor.promptHint')}{' '}
                  <Anchor component="button" type="button" size="xs" onClick={() => setInfoOpen(true)} data-testid="editor-info">
                    {t('info.open')}
                  </Anchor>
                </>
              }
              required
              autosize
              minRows={6}
              maxRows={20}
              readOnly={!canPrompt}
              maxLength={TEMPLATE_CONTENT_MAX}
              value={draft.content}
              onChange={(e) => set('content', e.currentTarget.value)}
              error={inputError('content')}
              data-testid="template-content-input"
            />
          )}
          <FieldsPanel fields={parsed.fields} errors={check} messageText={messageText} />
          <Group gap="md" align="flex-end" wrap="wrap">
            <Stack gap={4}>
              <Text size="sm" fw={500} id="template-language-label">
                {t('editor.language')}
              </Text>
              <SegmentedControl
                value={draft.language}
                onChange={(value) => set('language', value as TemplateLanguage)}
                data={[
                  { value: 'en', label: t('editor.english') },
                  { value: 'es', label: t('editor.spanish') },
                ]}
                aria-labelledby="template-language-label"
                data-testid="template-language"
              />
            </Stack>
            <Select
              label={t('editor.type')}
              placeholder={t('editor.typePlaceholder')}
              data={typeOptions}
              value={draft.type}
              onChange={(value) => set('type', value)}
              clearable
              searchable
              nothingFoundMessage={t('browser.noTypes')}
              style={{ flex: '1 1 200px' }}
              data-testid="template-type"
            />
            <MultiSelect
              label={t('editor.tags')}
              placeholder={t('editor.tagsPlaceholder')}
              data={tagOptions}
              value={draft.tags}
              onChange={(value) => set('tags', value)}
              maxValues={TEMPLATE_MAX_TAGS}
              clearable
              searchable
              nothingFoundMessage={t('browser.noTags')}
              style={{ flex: '2 1 280px' }}
              data-testid="template-tags"
            />
          </Group>
          {(canPrompt || canPublic) && (
            <Group gap="lg">
              {canPublic && <Switch label={t('editor.public')} checked={draft.public} onChange={(e) => set('public', e.currentTarget.checked)} data-testid="template-public" />}
              {canPrompt && (
                <Switch label={t('editor.editable')} description={t('editor.editableHint')} checked={draft.editable} onChange={(e) => set('editable', e.currentTarget.checked)} data-testid="template-editable" />
              )}
              {canPrompt && (
                <Switch label={t('editor.showPrompt')} description={t('editor.showPromptHint')} checked={draft.show_prompt} onChange={(e) => set('show_prompt', e.currentTarget.checked)} data-testid="template-show-prompt" />
              )}
            </Group>
          )}
          {submitted && invalid && (
            <Alert color="red" role="alert" data-testid="save-failed">
              {messageText('template_required_fields')}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button component={Link} to="/templates" variant="default">
              {t('editor.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending} data-testid="save-template">
              {t('editor.save')}
            </Button>
          </Group>
        </Stack>
      </form>
      <FieldsInfoModal opened={infoOpen} onClose={() => setInfoOpen(false)} />
      {!creating && (
        <ConfirmModal
          opened={deleting}
          onClose={() => setDeleting(false)}
          title={t('editor.deleteTitle')}
          warning={t('editor.deleteWarning', { name: template.name })}
          confirmLabel={t('editor.delete')}
          onConfirm={() => remove.mutate()}
          pending={remove.isPending}
          data-testid="delete-template-modal"
        />
      )}
    </Stack>
  );
}

/** The fields the prompt declares, in order: label, type, options, and each one's problem (spec part 2 §5). */
function FieldsPanel({ fields, errors, messageText }: { fields: TemplateField[]; errors: Record<string, string>; messageText: (key: MessageKey) => string }) {
  const { t } = useTranslation('templates');
  return (
    <Card withBorder radius="md" padding="md" data-testid="template-fields">
      <Stack gap="xs">
        <Title order={2} size="h5">
          {t('editor.fields', { count: fields.length })}
        </Title>
        {fields.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="no-fields">
            {t('editor.noFields')}
          </Text>
        ) : (
          <Stack gap="xs" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {fields.map((field) => {
              const error = errors[`fields.${field.order}`];
              return (
                <li key={field.order} data-testid="template-field">
                  <Group gap="xs" wrap="wrap">
                    <Text size="sm" fw={600} data-testid="field-label">
                      {field.label ? capitalise(field.label) : t('editor.unnamedField')}
                    </Text>
                    <Badge size="sm" variant="light" data-testid="field-type">
                      {t(`fieldType.${field.type}`)}
                    </Badge>
                    {field.options.map((option, index) => (
                      <Badge key={`${index}:${option}`} size="sm" variant="default">
                        {option}
                      </Badge>
                    ))}
                  </Group>
                  {error && (
                    <Text size="xs" c="red.7" data-testid="field-error">
                      {messageText(error as MessageKey)}
                    </Text>
                  )}
                </li>
              );
            })}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
