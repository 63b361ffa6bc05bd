import type { ChatModel } from '@pluma/common/models';
import { describe, expect, it } from 'vitest';
import { acceptedFileTypes, answersWithClaude, canAttachFiles, shortFileName } from './file-rules';

const models: ChatModel[] = [
  { id: 'gpt-4o-mini', label: 'GPT 4o Mini', provider: 'openai', isDefault: true },
  { id: 'grok-2-latest', label: 'Grok', provider: 'xai', isDefault: false },
  { id: 'claude-sonnet-4', label: 'Claude', provider: 'anthropic', isDefault: false },
];

describe('conversation files', () => {
  it('are offered for gpt, claude or unset models only', () => {
    expect(canAttachFiles(null, models)).toBe(true);
    expect(canAttachFiles('gpt-4o-mini', models)).toBe(true);
    expect(canAttachFiles('claude-sonnet-4', models)).toBe(true);
    expect(canAttachFiles('grok-2-latest', models)).toBe(false);
    expect(canAttachFiles('demo', [{ id: 'demo', label: 'Demo (offline)', provider: 'demo', isDefault: true }])).toBe(false);
  });

  it('know when Claude answers, also through the default of an unset model', () => {
    expect(answersWithClaude('claude-sonnet-4', models)).toBe(true);
    expect(answersWithClaude(null, models)).toBe(false);
    expect(answersWithClaude(null, [{ ...models[2], isDefault: true }])).toBe(true);
  });

  it('limit Claude to pdf and images', () => {
    expect(acceptedFileTypes(true)).toBe('application/pdf,image/jpeg,image/png,image/gif,image/webp');
    expect(acceptedFileTypes(false)).toContain('.docx');
  });

  it('shorten names after 30 characters', () => {
    expect(shortFileName('a'.repeat(30))).toBe('a'.repeat(30));
    expect(shortFileName(`${'b'.repeat(30)}.pdf`)).toBe(`${'b'.repeat(30)}…`);
  });
});
