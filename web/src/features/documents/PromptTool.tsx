// The tools panel's Prompt section (spec part 2 §2 "Prompt section: instruction box ('Insert your
// instruction!'), Generate"): a generation of kind 'prompt', streamed into the document, written in the
// chosen avatar's tone and style when one is picked in the Avatars section. While it runs, Generate is Stop.
import { Button, Stack, Textarea, Title } from '@mantine/core';
import { DOCUMENT_GENERATE_PROMPT_MAX } from '@pluma/common/documents-generate';
import { IconSparkles } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GenerateInput } from './generation-api';
import { StopGenerationButton, type StopControl } from './StopGenerationButton';

interface PromptToolProps {
  busy: boolean;
  onGenerate: (input: GenerateInput) => Promise<boolean>;
  stop: StopControl;
}

export function PromptTool({ busy, onGenerate, stop }: PromptToolProps) {
  const { t } = useTranslation('documents');
  const [instruction, setInstruction] = useState('');
  const ready = instruction.trim() !== '' && !busy;
  const generate = async () => {
    if (!ready) return;
    if (await onGenerate({ kind: 'prompt', prompt: instruction.trim() })) setInstruction('');
  };
  return (
    <Stack gap="xs" data-testid="document-prompt-tool">
      <Title order={3} size="h5">
        {t('tools.prompt')}
      </Title>
      <Textarea
        aria-label={t('tools.instruction')}
        placeholder={t('tools.instruction')}
        autosize
        minRows={3}
        maxRows={8}
        maxLength={DOCUMENT_GENERATE_PROMPT_MAX}
        value={instruction}
        onChange={(event) => setInstruction(event.currentTarget.value)}
        data-testid="document-prompt-instruction"
      />
      {busy ? (
        <StopGenerationButton onStop={stop.onStop} stopping={stop.stopping} testId="document-prompt-stop" />
      ) : (
        <Button leftSection={<IconSparkles size={16} aria-hidden />} onClick={() => void generate()} disabled={!ready} data-testid="document-prompt-generate">
          {t('tools.generate')}
        </Button>
      )}
    </Stack>
  );
}
