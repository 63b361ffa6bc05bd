// The JSON of an output (spec part 2 §3 "Output: output_id, liked, avatar_id") and of its thread.
import type { Output, OutputWithThread, ThreadMessage } from '@pluma/common/outputs';
import type { outputMessages } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { outputPolicy, type OutputRow } from './policy';
import type { OutputWithThreadRows } from './service';

export function presentOutput(actor: Actor, row: OutputRow): Output {
  return {
    output_id: row.outputId,
    avatar_id: row.avatarId,
    training_id: row.trainingId,
    prompt: row.prompt,
    content: row.content,
    status: row.status as Output['status'],
    liked: row.liked,
    model: row.model,
    error_code: row.errorCode,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    abilities: outputPolicy.abilities(actor, row),
  };
}

export function presentThreadMessage(row: typeof outputMessages.$inferSelect): ThreadMessage {
  return {
    output_message_id: row.outputMessageId,
    output_id: row.outputId,
    role: row.role as ThreadMessage['role'],
    content: row.content,
    isThread: true,
    createdAt: row.createdAt.toISOString(),
  };
}

export function presentOutputWithThread(actor: Actor, { row, thread }: OutputWithThreadRows): OutputWithThread {
  return { ...presentOutput(actor, row), thread: thread.map(presentThreadMessage) };
}
