// A prompt filled server-side (issue 30 item 9): POST /messages { template_id, values } or { user_workflow_id }
// instead of content. The template is one the actor sees (templates policy, else 404) and the values are
// checked with the common template-field rules; a workflow step is the actor's own run's (workflows policy).
// The model always gets the filled prompt; when the actor may not read the template's prompt (show_prompt off,
// not theirs, not staff) the saved message shows a label (the template's name and the values) and the prompt
// goes to messages.model_content, which no presenter sends (present.ts).
import type { AppContext } from '../../context';
import type { Actor } from '../../platform/auth/actor';
import { requireFeature } from '../appconfig';
import { fillTemplateForMessage } from '../templates';
import { stepMessage } from '../workflows';

export interface TemplatedPrompt {
  /** What the user message shows (and the answer's `prompt`). */
  content: string;
  /** What the model is sent instead, when it differs from content; else null. */
  modelContent: string | null;
}

export interface TemplatedInput {
  conversation_id: number;
  template_id?: number;
  values?: Record<string, string>;
  user_workflow_id?: number;
}

export const isTemplated = (input: TemplatedInput): boolean => input.template_id !== undefined || input.user_workflow_id !== undefined;

export async function templatedPrompt({ actor, ctx, input }: { actor: Actor; ctx: AppContext; input: TemplatedInput }): Promise<TemplatedPrompt> {
  // Templates and workflows exist only while their area is on (their own routes' gate).
  await requireFeature(ctx, 'templates_enabled');
  const filled =
    input.template_id !== undefined
      ? await fillTemplateForMessage({ actor, db: ctx.db, templateId: input.template_id, values: input.values ?? {} })
      : await stepMessage({ actor, db: ctx.db, userWorkflowId: input.user_workflow_id as number, conversationId: input.conversation_id });
  return filled.hidden ? { content: filled.shown, modelContent: filled.prompt } : { content: filled.prompt, modelContent: null };
}
