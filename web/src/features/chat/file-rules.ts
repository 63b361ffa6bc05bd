// Conversation files (spec part 2 §2 "Conversations", §9): the upload shows for GPT, Claude or an unset
// model; Claude takes only pdf, jpeg, png, gif and webp, with 100 PDF pages in total; names shorten after 30.
import { FILE_ACCEPT } from '@pluma/common/file-types';
import type { ChatModel } from '@pluma/common/models';

export const CLAUDE_PDF_PAGE_LIMIT = 100;
export const CLAUDE_FILE_TYPES = ['pdf', 'jpeg', 'png', 'gif', 'webp'] as const;
const CLAUDE_ACCEPT = 'application/pdf,image/jpeg,image/png,image/gif,image/webp';
/** spec part 2 §9: file names are shortened after 30 characters. */
export const FILE_NAME_MAX = 30;

const isGpt = (id: string, model: ChatModel | null) => model?.provider === 'openai' || id.toLowerCase().startsWith('gpt');
const isClaudeId = (id: string, model: ChatModel | null) => model?.provider === 'anthropic' || id.toLowerCase().startsWith('claude');

/** Files show for gpt, claude or unset models. */
export function canAttachFiles(modelId: string | null, models: readonly ChatModel[]): boolean {
  if (!modelId) return true;
  const model = models.find((m) => m.id === modelId) ?? null;
  return isGpt(modelId, model) || isClaudeId(modelId, model);
}

/** The model that will answer is Claude (the conversation's, or the default when unset). */
export function answersWithClaude(modelId: string | null, models: readonly ChatModel[]): boolean {
  const model = modelId ? (models.find((m) => m.id === modelId) ?? null) : (models.find((m) => m.isDefault) ?? null);
  const id = modelId ?? model?.id ?? '';
  return isClaudeId(id, model);
}

export function acceptedFileTypes(claude: boolean): string {
  return claude ? CLAUDE_ACCEPT : FILE_ACCEPT;
}

export function shortFileName(name: string, max: number = FILE_NAME_MAX): string {
  return name.length > max ? `${name.slice(0, max)}…` : name;
}
