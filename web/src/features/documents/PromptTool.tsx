// The tools panel's Prompt section (spec part 2 §2 "Prompt section: instruction box ('Insert your
// instruction!'), Generate"): a generation of kind 'prompt', streamed into the document, written in the
// chosen avatar's tone and style when one is picked in the Avatars section. While it runs, Generate is Stop.
// With the globe on (issue 32, shown when the admin has chosen a search provider, as in chat) the server
// searches the web first; the text cites the pages and ends with their list.
import { Button, Group, Stack, Switch, Textarea, Title } from '@mantine/core';
import { DOCUMENT_GENERATE_PROMPT_MAX } from '@pluma/common/documents-generate';
import { IconSparkles, IconWorld } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppConfig } from '../../platform/config/app-config';
import { useActiveOrganizationRecord } from '../organizations';
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
  // As in chat: the admin's provider, or the active organization's own.
  const organization = useActiveOrganizationRecord();
  const webSearchOffered = useAppConfig().get('web_search_provider') !== '' || organization?.web_search === true;
  const [webSearch, setWebSearch] = useState(false);
  const ready = instruction.trim() !== '' && !busy;
  const generate = async () => {
    if (!ready) return;
    if (await onGenerate({ kind: 'prompt', prompt: instruction.trim(), ...(webSearchOffered && webSearch ? { searchOnInternet: true } : {}) })) setInstruction('');
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
      {webSearchOffered && (
        <Group gap={6} wrap="nowrap">
          <IconWorld size={16} aria-hidden />
          <Switch size="sm" label={t('tools.webSearch')} checked={webSearch} onChange={(event) => setWebSearch(event.currentTarget.checked)} data-testid="document-web-search" />
        </Group>
      )}
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
