// A code block in an answer, with a copy button that confirms with 'Copied' for a moment.
import { Button } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useEffect, useState, type ComponentPropsWithoutRef } from 'react';
import { useTranslation } from 'react-i18next';
import { copyToClipboard } from '../../ui/clipboard';
import classes from './answer-content.module.css';

/** The parts of a hast node we read: its text, whatever highlighting spans wrap it. */
export interface TextNode {
  type: string;
  value?: string;
  children?: TextNode[];
}

/** The plain text under a node (the code as the model wrote it, without highlighting markup). */
export function nodeText(node: TextNode | undefined): string {
  if (!node) return '';
  if (node.type === 'text') return node.value ?? '';
  return (node.children ?? []).map(nodeText).join('');
}

const COPIED_FOR_MS = 2000;

export function CodeBlock({ code, ...pre }: ComponentPropsWithoutRef<'pre'> & { code: string }) {
  const { t } = useTranslation('chat');
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    // The fenced block's text ends with the newline before the closing fence; nobody wants it pasted.
    if (await copyToClipboard(code.replace(/\n$/, ''), t('answer.codeCopiedNotice'))) setCopied(true);
  };

  return (
    <div className={classes.codeBlock}>
      <pre {...pre} className={[pre.className, classes.code].filter(Boolean).join(' ')} />
      <Button
        className={classes.copyCode}
        size="compact-xs"
        variant="default"
        leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
        aria-label={copied ? t('answer.codeCopied') : t('answer.copyCode')}
        onClick={() => void copy()}
      >
        {copied ? t('answer.codeCopied') : t('answer.copyCode')}
      </Button>
    </div>
  );
}
