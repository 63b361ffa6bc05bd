// The campaign document page's 'Generate Document' (spec part 2 §2 "Campaign document page: … Generate opens a
// two-step modal: choose a template from the campaign's templates (Next), then an avatar (Generate)"; §4
// "steps: templates, then avatars"). Step 1 lists the campaign's template links (searchable) and, once one is
// chosen, its fields (spec §5 "Applying a template: every field value non-empty"); step 2 picks one of the
// actor's avatars (searchable). Generate hands a 'template' generation (template, values, avatar) to the page,
// which moves to the edit view and streams the answer there. Empty states: no templates in the campaign; no
// avatars (a link to create one).
import { Alert, Anchor, Button, Group, Loader, NativeSelect, NumberInput, Select, Stack, Stepper, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { SEARCH_DEBOUNCE_MS } from '@pluma/common/constants';
import { checkFieldValue, checkFieldValues } from '@pluma/common/rules/template-fields';
import type { TemplateField } from '@pluma/common/templates';
import { IconSparkles } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Modal } from '../../ui/Modal';
import { useAvatars } from '../avatars';
import { useCampaignResources } from '../campaigns';
import { capitalise, useMessageText, useTemplate } from '../templates';
import type { GenerateInput } from './generation-api';

interface GenerateDocumentModalProps {
  opened: boolean;
  campaignId: number;
  onClose: () => void;
  /** The chosen template, its values and the avatar: the page starts the generation in its edit view. */
  onGenerate: (input: GenerateInput) => void;
}

export function GenerateDocumentModal({ opened, campaignId, onClose, onGenerate }: GenerateDocumentModalProps) {
  const { t } = useTranslation('documents');
  return (
    <Modal opened={opened} onClose={onClose} title={t('campaignDocument.modalTitle')} size="lg" data-testid="generate-document-modal">
      {/* Mounted only while open: each opening starts again at step 1. */}
      {opened && <Steps campaignId={campaignId} onGenerate={onGenerate} />}
    </Modal>
  );
}

/** The values as they start (a field's default) with what was typed over them. */
const valuesOf = (fields: TemplateField[], typed: Record<string, string>) => Object.fromEntries(fields.map((field) => [field.name, typed[field.name] ?? field.value ?? '']));

function Steps({ campaignId, onGenerate }: Pick<GenerateDocumentModalProps, 'campaignId' | 'onGenerate'>) {
  const { t } = useTranslation('documents');
  const [step, setStep] = useState(0);
  const [templateId, setTemplateId] = useState<number | null>(null);
  const [typed, setTyped] = useState<Record<string, string>>({});
  const [avatarId, setAvatarId] = useState<string | null>(null);
  const template = useTemplate(templateId);
  const fields = template.data?.template_id === templateId ? (template.data?.fields ?? null) : null;
  const values = fields ? valuesOf(fields, typed) : {};
  // spec part 2 §5 "Applying a template: every field value non-empty … Generate blocked until all are filled".
  const ready = templateId !== null && fields !== null && Object.keys(checkFieldValues(fields, values)).length === 0;

  return (
    <Stepper active={step} size="sm" allowNextStepsSelect={false} onStepClick={setStep}>
      <Stepper.Step label={t('campaignDocument.stepTemplate')}>
        <Stack gap="md" mt="md">
          <TemplateStep
            campaignId={campaignId}
            templateId={templateId}
            onTemplate={(id) => {
              setTemplateId(id);
              setTyped({});
            }}
            fields={fields}
            loading={templateId !== null && template.isPending}
            failed={templateId !== null && template.isError}
            values={values}
            onValue={(name, value) => setTyped((current) => ({ ...current, [name]: value }))}
          />
          <Group justify="flex-end">
            <Button onClick={() => setStep(1)} disabled={!ready} data-testid="generate-document-next">
              {t('campaignDocument.next')}
            </Button>
          </Group>
        </Stack>
      </Stepper.Step>
      <Stepper.Step label={t('campaignDocument.stepAvatar')}>
        <Stack gap="md" mt="md">
          <AvatarStep avatarId={avatarId} onAvatar={setAvatarId} />
          <Group justify="space-between">
            <Button variant="default" onClick={() => setStep(0)} data-testid="generate-document-previous">
              {t('campaignDocument.previous')}
            </Button>
            <Button
              leftSection={<IconSparkles size={16} aria-hidden />}
              disabled={!ready || avatarId === null}
              onClick={() => ready && avatarId !== null && onGenerate({ kind: 'template', template_id: templateId, values, avatar_id: Number(avatarId) })}
              data-testid="generate-document-generate"
            >
              {t('campaignDocument.generate')}
            </Button>
          </Group>
        </Stack>
      </Stepper.Step>
    </Stepper>
  );
}

interface TemplateStepProps {
  campaignId: number;
  templateId: number | null;
  onTemplate: (templateId: number | null) => void;
  /** The chosen template's fields once read. */
  fields: TemplateField[] | null;
  loading: boolean;
  failed: boolean;
  values: Record<string, string>;
  onValue: (name: string, value: string) => void;
}

function TemplateStep({ campaignId, templateId, onTemplate, fields, loading, failed, values, onValue }: TemplateStepProps) {
  const { t } = useTranslation('documents');
  const [search, setSearch] = useState('');
  const [chosenName, setChosenName] = useState<string | null>(null);
  const [query] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  // The search is the server's; once a template is chosen its name in the box is not a search.
  const links = useCampaignResources(campaignId, 'template', query === chosenName ? '' : query);
  const resources = links.data?.resources ?? [];

  if (links.isError) return <Alert color="red">{t('campaignDocument.templatesError')}</Alert>;
  if (links.isPending) return <Loader size="sm" aria-label={t('campaignDocument.loading')} />;
  // The campaign links no template at all (not only none matching the search).
  if (resources.length === 0 && query === '' && templateId === null)
    return (
      <Text c="dimmed" data-testid="generate-document-no-templates">
        {t('campaignDocument.noTemplates')}
      </Text>
    );
  const options = resources.map((r) => ({ value: String(r.resource_id), label: r.name }));
  if (templateId !== null && chosenName !== null && !options.some((o) => o.value === String(templateId))) options.unshift({ value: String(templateId), label: chosenName });

  return (
    <Stack gap="sm">
      <Select
        label={t('campaignDocument.template')}
        placeholder={t('campaignDocument.searchTemplates')}
        searchable
        searchValue={search}
        onSearchChange={setSearch}
        filter={({ options: all }) => all}
        nothingFoundMessage={links.isFetching ? t('tools.searching') : t('tools.noTemplates')}
        data={options}
        value={templateId === null ? null : String(templateId)}
        onChange={(value, option) => {
          setChosenName(option?.label ?? null);
          onTemplate(value === null ? null : Number(value));
        }}
        data-testid="generate-document-template"
      />
      {loading && <Loader size="sm" aria-label={t('campaignDocument.loading')} />}
      {failed && <Alert color="red">{t('campaignDocument.templatesError')}</Alert>}
      {fields && <Fields fields={fields} values={values} onValue={onValue} />}
    </Stack>
  );
}

/** The template's fields (spec part 2 §2 apply screen: a select is a dropdown, a number a number input, the rest text). */
function Fields({ fields: unsorted, values, onValue }: Pick<TemplateStepProps, 'values' | 'onValue'> & { fields: TemplateField[] }) {
  const { t } = useTranslation(['documents', 'templates']);
  const messageText = useMessageText();
  const fields = [...unsorted].sort((a, b) => a.order - b.order);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const set = (field: TemplateField, value: string) => {
    setTouched((seen) => ({ ...seen, [field.name]: true }));
    onValue(field.name, value);
  };
  const errorOf = (field: TemplateField) => {
    const problem = touched[field.name] ? checkFieldValue(field, values[field.name]) : null;
    return problem ? messageText(problem) : undefined;
  };

  if (fields.length === 0)
    return (
      <Text size="sm" c="dimmed" data-testid="generate-document-no-fields">
        {t('campaignDocument.noFields')}
      </Text>
    );
  return (
    <Stack gap="xs" data-testid="generate-document-fields">
      {fields.map((field) => {
        const common = { label: capitalise(field.label), required: true, error: errorOf(field), 'data-testid': 'generate-document-field' };
        if (field.type === 'select')
          return (
            <NativeSelect
              key={field.name}
              {...common}
              value={values[field.name] ?? ''}
              onChange={(event) => set(field, event.currentTarget.value)}
              data={[{ value: '', label: t('templates:apply.choose'), disabled: true }, ...field.options.map((option) => ({ value: option, label: option }))]}
            />
          );
        if (field.type === 'number')
          return <NumberInput key={field.name} {...common} value={values[field.name] ?? ''} onChange={(value) => set(field, value === '' ? '' : String(value))} decimalSeparator="." allowNegative />;
        return <TextInput key={field.name} {...common} value={values[field.name] ?? ''} onChange={(event) => set(field, event.currentTarget.value)} />;
      })}
    </Stack>
  );
}

function AvatarStep({ avatarId, onAvatar }: { avatarId: string | null; onAvatar: (avatarId: string | null) => void }) {
  const { t } = useTranslation('documents');
  const avatars = useAvatars('mine', '');
  const list = avatars.data?.avatars ?? [];

  if (avatars.isError) return <Alert color="red">{t('campaignDocument.avatarsError')}</Alert>;
  if (avatars.isPending) return <Loader size="sm" aria-label={t('campaignDocument.loading')} />;
  if (list.length === 0)
    return (
      <Stack gap="xs" data-testid="generate-document-no-avatars">
        <Text c="dimmed">{t('campaignDocument.noAvatars')}</Text>
        <Anchor component={Link} to="/avatars">
          {t('campaignDocument.createAvatar')}
        </Anchor>
      </Stack>
    );
  return (
    <Select
      label={t('campaignDocument.avatar')}
      placeholder={t('campaignDocument.searchAvatars')}
      searchable
      nothingFoundMessage={t('tools.noAvatars')}
      data={list.map((a) => ({ value: String(a.avatar_id), label: a.name }))}
      value={avatarId}
      onChange={onAvatar}
      data-testid="generate-document-avatar"
    />
  );
}
