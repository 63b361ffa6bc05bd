// The tools panel's Super Fetch section (spec part 2 §2 "Super-fetch section: text or textarea inputs plus
// a file"): the nine Super Fetch inputs (six required) and an optional .docx/.pdf/.pptx/.txt file whose text
// is the context, sent as a generation of kind 'super_fetch' (multipart when a file goes with it). Shown only
// when the super_fetch setting is on and in Personal (Super Fetch is not in organization scope).
import { Button, FileInput, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { SUPER_FETCH_FILE_TYPES, SUPER_FETCH_INPUT_MAX, SUPER_FETCH_INPUTS, SUPER_FETCH_REQUIRED, type SuperFetchInputKey, type SuperFetchInputs } from '@pluma/common/super-fetch';
import { IconBolt } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GenerateInput } from './generation-api';
import { StopGenerationButton, type StopControl } from './StopGenerationButton';

const EMPTY = Object.fromEntries(SUPER_FETCH_INPUTS.map((key) => [key, ''])) as SuperFetchInputs;
/** Longer inputs get a text area (as on the Super Fetch page). */
const MULTILINE: readonly SuperFetchInputKey[] = ['examples', 'prompt'];
const ACCEPT = SUPER_FETCH_FILE_TYPES.map((type) => `.${type}`).join(',');

interface SuperFetchToolProps {
  busy: boolean;
  onGenerate: (input: GenerateInput, file?: File | null) => Promise<boolean>;
  stop: StopControl;
}

export function SuperFetchTool({ busy, onGenerate, stop }: SuperFetchToolProps) {
  const { t } = useTranslation('documents');
  const { t: ts } = useTranslation('super-fetch');
  const [inputs, setInputs] = useState<SuperFetchInputs>(EMPTY);
  const [touched, setTouched] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const missing = SUPER_FETCH_REQUIRED.filter((key) => !inputs[key].trim());
  const generate = async () => {
    setTouched(true);
    if (missing.length > 0 || busy) return;
    const filled = Object.fromEntries(SUPER_FETCH_INPUTS.filter((key) => inputs[key].trim()).map((key) => [key, inputs[key].trim()]));
    await onGenerate({ kind: 'super_fetch', inputs: filled }, file);
  };

  return (
    <Stack gap="xs" data-testid="document-super-fetch-tool">
      <Title order={3} size="h5">
        {t('tools.superFetch')}
      </Title>
      {SUPER_FETCH_INPUTS.map((key) => {
        const required = SUPER_FETCH_REQUIRED.includes(key);
        const props = {
          label: ts(`inputs.${key}`),
          placeholder: ts(`placeholders.${key}`),
          required,
          maxLength: SUPER_FETCH_INPUT_MAX,
          value: inputs[key],
          error: touched && required && !inputs[key].trim() ? ts('required') : undefined,
          onChange: (event: { currentTarget: { value: string } }) => {
            const value = event.currentTarget.value;
            setInputs((current) => ({ ...current, [key]: value }));
          },
          'data-testid': `document-super-fetch-${key}`,
        };
        return MULTILINE.includes(key) ? <Textarea key={key} autosize minRows={2} maxRows={6} {...props} /> : <TextInput key={key} {...props} />;
      })}
      <FileInput label={ts('file')} description={ts('fileHint')} accept={ACCEPT} clearable value={file} onChange={setFile} data-testid="document-super-fetch-file" />
      {busy ? (
        <StopGenerationButton onStop={stop.onStop} stopping={stop.stopping} testId="document-super-fetch-stop" />
      ) : (
        <Button leftSection={<IconBolt size={16} aria-hidden />} onClick={() => void generate()} data-testid="document-super-fetch-generate">
          {t('tools.generate')}
        </Button>
      )}
    </Stack>
  );
}
