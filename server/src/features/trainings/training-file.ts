// The training file (issue 13 item 4): OpenAI's chat fine-tuning format, one JSON object per line
// ({"messages":[system, user, assistant]}), built from the avatar's context (the system turn), its liked
// outputs (prompt → text, newest first) and its files' text (each passage an answer in the avatar's voice),
// and checked before it is uploaded: valid lines, an assistant turn each, at least MIN_TRAINING_EXAMPLES.
import { MAX_TRAINING_EXAMPLES, MIN_TRAINING_EXAMPLES } from '@pluma/common/trainings';
import { and, desc, eq, isNotNull } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { avatarFiles, outputs } from '../../db/schema';
import { wholeFileText } from '../knowledge';

export interface ChatExample {
  messages: { role: 'system' | 'user' | 'assistant'; content: string }[];
}

/** The most text read from the avatar's files for one training file. */
const FILES_BUDGET_CHARS = 1_500_000;
const PASSAGE_MAX = 1_400;
const PASSAGE_MIN = 120;

/** Paragraph-aligned passages of about PASSAGE_MAX characters (short ones are joined, long ones cut at a sentence). */
export function passagesOf(text: string): string[] {
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
  const passages: string[] = [];
  let current = '';
  const flush = () => {
    if (current.length >= PASSAGE_MIN) passages.push(current);
    current = '';
  };
  for (const paragraph of paragraphs) {
    let rest = paragraph;
    while (rest.length > PASSAGE_MAX) {
      const cut = rest.lastIndexOf('. ', PASSAGE_MAX);
      const at = cut > PASSAGE_MAX / 2 ? cut + 1 : PASSAGE_MAX;
      if (current) flush();
      current = rest.slice(0, at).trim();
      flush();
      rest = rest.slice(at).trim();
    }
    if (current && current.length + rest.length + 1 > PASSAGE_MAX) flush();
    current = current ? `${current}\n\n${rest}` : rest;
  }
  flush();
  return passages;
}

/** What a passage is about: its first sentence, at most 100 characters. */
function topicOf(passage: string): string {
  const first = passage.split(/(?<=[.!?])\s/)[0] ?? passage;
  return first.length > 100 ? `${first.slice(0, 100).trimEnd()}…` : first;
}

export async function buildTrainingExamples(options: { ctx: AppContext; avatar: { avatarId: number; name: string; context: string }; userId: number }): Promise<ChatExample[]> {
  const { ctx, avatar, userId } = options;
  const system = avatar.context.trim() || avatar.name;
  const examples: ChatExample[] = [];
  const add = (user: string, assistant: string) => {
    if (examples.length < MAX_TRAINING_EXAMPLES && user.trim() && assistant.trim()) {
      examples.push({ messages: [{ role: 'system', content: system }, { role: 'user', content: user.trim() }, { role: 'assistant', content: assistant.trim() }] });
    }
  };
  const liked = await ctx.db
    .select({ prompt: outputs.prompt, content: outputs.content })
    .from(outputs)
    .where(and(eq(outputs.avatarId, avatar.avatarId), eq(outputs.userId, userId), eq(outputs.liked, true), eq(outputs.status, 'done'), isNotNull(outputs.content)))
    .orderBy(desc(outputs.updatedAt))
    .limit(MAX_TRAINING_EXAMPLES);
  for (const output of liked) add(output.prompt, output.content ?? '');

  const fileIds = (await ctx.db.select({ fileId: avatarFiles.fileId }).from(avatarFiles).where(eq(avatarFiles.avatarId, avatar.avatarId))).map((r) => r.fileId);
  // The whole text of the indexed files when it fits the budget; else each file's own text up to its share.
  let texts = await wholeFileText({ ctx, fileIds, budgetChars: FILES_BUDGET_CHARS });
  if (texts === null) {
    texts = [];
    const share = Math.floor(FILES_BUDGET_CHARS / Math.max(1, fileIds.length));
    for (const fileId of fileIds) texts.push(...((await wholeFileText({ ctx, fileIds: [fileId], budgetChars: share })) ?? []));
  }
  for (const { text } of texts) {
    for (const passage of passagesOf(text)) add(`Write a passage in your own voice about: ${topicOf(passage)}`, passage);
  }
  return examples;
}

export const toJsonl = (examples: ChatExample[]) => examples.map((e) => JSON.stringify(e)).join('\n') + '\n';

/** The first problem of a training file (as OpenAI would find it), or null. */
export function trainingFileProblem(jsonl: string): { problem: 'too_few_examples' | 'invalid_line'; count: number } | null {
  const lines = jsonl.split('\n').filter((l) => l.trim() !== '');
  for (const line of lines) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return { problem: 'invalid_line', count: lines.length };
    }
    const messages = (parsed as Partial<ChatExample>)?.messages;
    const valid =
      Array.isArray(messages) &&
      messages.every((m) => ['system', 'user', 'assistant'].includes(m?.role) && typeof m?.content === 'string' && m.content.trim() !== '') &&
      messages.some((m) => m.role === 'assistant');
    if (!valid) return { problem: 'invalid_line', count: lines.length };
  }
  if (lines.length < MIN_TRAINING_EXAMPLES) return { problem: 'too_few_examples', count: lines.length };
  return null;
}
