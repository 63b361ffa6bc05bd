// The generated code in a read-only block with 'Copy Widget To Clipboard' (spec part 2 §2, §8: 'Avatar
// widget code copied to clipboard!'; a failed copy shows the shared 'Unable to copy content to clipboard.
// Please copy manually.'). The block is focusable so a keyboard user can scroll and select it.
import { Button, Code, Group, Stack, Text, Title } from '@mantine/core';
import { IconCopy } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n';
import { copyToClipboard } from '../../ui/clipboard';
import { widgetSnippet, type SnippetWidget } from './snippet';

/** `focus`: take the focus when shown in place of what had it (the rotate dialog's confirm button). */
export function WidgetSnippet({ widget, withTitle = true, focus = false }: { widget: SnippetWidget; withTitle?: boolean; focus?: boolean }) {
  const { t } = useTranslation('widgets');
  const block = useRef<HTMLPreElement>(null);
  useEffect(() => {
    if (focus) block.current?.focus();
  }, [focus]);
  const snippet = widgetSnippet(widget, window.location.origin, currentLanguage());
  return (
    <Stack gap="xs" data-testid="widget-snippet-panel">
      {withTitle && (
        <Title order={2} size="h4">
          {t('snippet.title')}
        </Title>
      )}
      <Text size="sm" c="var(--pluma-muted)">
        {t('snippet.hint')}
      </Text>
      <Code ref={block} block tabIndex={0} aria-label={t('snippet.label', { name: widget.name })} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} data-testid="widget-snippet">
        {snippet}
      </Code>
      <Group>
        <Button leftSection={<IconCopy size={16} aria-hidden />} onClick={() => void copyToClipboard(snippet, t('snippet.copied'))} data-testid="widget-copy">
          {t('snippet.copy')}
        </Button>
      </Group>
    </Stack>
  );
}
