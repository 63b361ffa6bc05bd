// Super Fetch, the form-based prompt builder (spec part 2 §2 "Super Fetch", §3 "Super Fetch prompt builder
// inputs", §5, §7 "Super Fetch", the `super_fetch_outputs` event, §9; issue 14 item 4), shared by server and web.
import { z } from 'zod';
import { id, idParam, text } from './schema-kit';

/** The nine inputs, in the spec's order (§3); the first six are required (§2). */
/** What may be done with one output (its `abilities`). */
export const SUPER_FETCH_OUTPUT_ACTIONS = ['rate', 'stop'] as const;
export type SuperFetchOutputAction = (typeof SUPER_FETCH_OUTPUT_ACTIONS)[number];

export const SUPER_FETCH_INPUTS = ['task', 'topic', 'target', 'person', 'tone', 'format', 'examples', 'callToAction', 'prompt'] as const;
export type SuperFetchInputKey = (typeof SUPER_FETCH_INPUTS)[number];
export const SUPER_FETCH_REQUIRED: readonly SuperFetchInputKey[] = ['task', 'topic', 'target', 'person', 'tone', 'format'];

/** Outputs of one request: the form starts at 1 and goes down to 0 (§9); 0 asks for nothing and is refused. */
export const SUPER_FETCH_OUTPUTS_DEFAULT = 1;
export const SUPER_FETCH_OUTPUTS_MIN = 0;
/** Each output is a concurrent provider call holding its own words; 10 bounds one click's cost. */
export const SUPER_FETCH_OUTPUTS_MAX = 10;
export const SUPER_FETCH_INPUT_MAX = 4_000;
export const SUPER_FETCH_FEEDBACK_MAX = 4_000;
/** Characters of an uploaded file's text used as context (the rest is left out, and the run says so). */
export const SUPER_FETCH_FILE_CONTEXT_MAX = 24_000;
/** Uploads Super Fetch reads (§5). */
export const SUPER_FETCH_FILE_TYPES = ['docx', 'pdf', 'pptx', 'txt'] as const;
export const SUPER_FETCH_HISTORY_PAGE = 10;

/**
 * The template's variables (§5 hint: "Task, Topic, Target, Person, Tone, Format, Examples, CTA and Prompt"),
 * written `{Task}` in the admin's `super_fetch_prompt` (any case, spaces inside the braces allowed).
 */
export const SUPER_FETCH_VARIABLES: Record<SuperFetchInputKey, string> = {
  task: 'Task',
  topic: 'Topic',
  target: 'Target',
  person: 'Person',
  tone: 'Tone',
  format: 'Format',
  examples: 'Examples',
  callToAction: 'CTA',
  prompt: 'Prompt',
};

/** Used when the admin's `super_fetch_prompt` is empty. */
export const DEFAULT_SUPER_FETCH_PROMPT = [
  'Task: {Task}',
  'Topic: {Topic}',
  'Target audience: {Target}',
  'Write as this persona: {Person}',
  'Tone: {Tone}',
  'Formula / format: {Format}',
  'Examples to take inspiration from: {Examples}',
  'Call to action: {CTA}',
  'Additional instructions: {Prompt}',
  '',
  'Write the piece now. Follow the formula, speak to the target audience in the persona and tone given, and end with the call to action when there is one. Answer with the finished text only, in the language of the inputs.',
].join('\n');

export type SuperFetchInputs = Record<SuperFetchInputKey, string>;

const VARIABLE = /\{\s*(task|topic|target|person|tone|format|examples|cta|prompt)\s*\}/gi;

/**
 * The prompt of one request: the template with each `{Variable}` replaced by its input. A template line whose
 * only variables are empty optional inputs is dropped (no "Examples: " left hanging). The hint is not enforced
 * (§5), so an input the template never mentions is appended as "Label: value", never silently lost.
 */
export function fillSuperFetchPrompt(template: string, inputs: SuperFetchInputs): string {
  const source = template.trim() || DEFAULT_SUPER_FETCH_PROMPT;
  const byVariable = new Map(SUPER_FETCH_INPUTS.map((key) => [SUPER_FETCH_VARIABLES[key].toLowerCase(), key]));
  const used = new Set<SuperFetchInputKey>();
  const lines = source.split('\n').flatMap((line) => {
    const found = [...line.matchAll(VARIABLE)].map((m) => byVariable.get(m[1].toLowerCase())!);
    found.forEach((key) => used.add(key));
    if (found.length > 0 && found.every((key) => !inputs[key].trim())) return [];
    return [line.replace(VARIABLE, (_, name: string) => inputs[byVariable.get(name.toLowerCase())!].trim())];
  });
  const missing = SUPER_FETCH_INPUTS.filter((key) => !used.has(key) && inputs[key].trim()).map((key) => `${SUPER_FETCH_VARIABLES[key]}: ${inputs[key].trim()}`);
  return [...lines, ...(missing.length ? ['', ...missing] : [])].join('\n').trim();
}

/** `{avatar}_{name}_{YYYY_MM_DD_HH_mm}.xlsx` (§2, §9), local time; characters a file system refuses become '-'. */
export function superFetchSpreadsheetName(avatar: string, name: string, at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = `${at.getFullYear()}_${pad(at.getMonth() + 1)}_${pad(at.getDate())}_${pad(at.getHours())}_${pad(at.getMinutes())}`;
  const safe = (part: string) => part.replace(/[\\/:*?"<>|\p{Cc}]/gu, '-').trim() || '-';
  return `${safe(avatar)}_${safe(name)}_${stamp}.xlsx`;
}

const required = text({ error: 'super_fetch_input_required' }).trim().min(1, { error: 'super_fetch_input_required' }).max(SUPER_FETCH_INPUT_MAX);
const optional = text().trim().max(SUPER_FETCH_INPUT_MAX).default('');

/**
 * POST /super_fetch/v2 (§7: field values, outputs count, assistant_id, optional organization_id — which is
 * refused: Super Fetch is not in organization scope). `feedback` makes it a modified prompt: its text is
 * required (§5) and it is applied to the outputs of `run_id` (default: the avatar's latest run).
 */
export const superFetchRequest = z.object({
  task: required,
  topic: required,
  target: required,
  person: required,
  tone: required,
  format: required,
  examples: optional,
  callToAction: optional,
  prompt: optional,
  outputs: z
    .number({ error: 'super_fetch_outputs_range' })
    .int({ error: 'super_fetch_outputs_range' })
    .min(1, { error: 'super_fetch_outputs_range' })
    .max(SUPER_FETCH_OUTPUTS_MAX, { error: 'super_fetch_outputs_range' })
    .default(SUPER_FETCH_OUTPUTS_DEFAULT),
  assistant_id: id().nullable().optional(),
  file_id: id().nullable().optional(),
  feedback: z
    .object({
      input: text().trim().min(1, { error: 'super_fetch_feedback_required' }).max(SUPER_FETCH_FEEDBACK_MAX),
      liked: z.boolean().nullable().default(null),
      run_id: id().nullable().optional(),
    })
    .nullable()
    .optional(),
  organization_id: idParam().nullable().optional(),
});
export type SuperFetchRequest = z.input<typeof superFetchRequest>;

/**
 * One input of the prompt builder as the form holds it (spec part 2 §3: "each has label, value, required,
 * editable, isValid"); only `value` is used, the rest is the form's own state.
 */
export const superFetchField = z.object({
  label: text().max(254).optional(),
  value: text().max(SUPER_FETCH_INPUT_MAX).default(''),
  required: z.boolean().optional(),
  editable: z.boolean().optional(),
  isValid: z.boolean().optional(),
});

/**
 * POST /super_fetch {fields} (spec part 2 §7: the first version, fields only): the nine inputs in the spec's
 * order (§3), one output, on the user's Super Fetch avatar unless `assistant_id` names another of theirs.
 */
export const superFetchFieldsRequest = z.object({
  fields: z.array(superFetchField).length(SUPER_FETCH_INPUTS.length, { error: 'super_fetch_fields_count' }),
  assistant_id: id().nullable().optional(),
  organization_id: idParam().nullable().optional(),
});
export type SuperFetchFieldsRequest = z.input<typeof superFetchFieldsRequest>;

/** The v2 request a fields-only request stands for (validated as one: the same messages). */
export function superFetchRequestOfFields(body: z.output<typeof superFetchFieldsRequest>): SuperFetchRequest {
  return {
    ...(Object.fromEntries(SUPER_FETCH_INPUTS.map((key, i) => [key, body.fields[i]?.value ?? ''])) as SuperFetchInputs),
    outputs: SUPER_FETCH_OUTPUTS_DEFAULT,
    assistant_id: body.assistant_id ?? null,
    organization_id: body.organization_id ?? null,
  };
}

export const superFetchAssistantParams = z.object({ assistant_id: idParam() });
export const superFetchHistoryQuery = z.object({
  limit: z.coerce.number().int().min(1).max(50).default(SUPER_FETCH_HISTORY_PAGE),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  organization_id: idParam().optional(),
});
/**
 * POST /super_fetch/stop (issue 30 item 1): stops the run's outputs still running, or only `output_id`;
 * answers with the run as it is then (stopping a finished run changes nothing).
 */
export const superFetchStopRequest = z.object({ run_id: id(), output_id: id().nullable().optional(), organization_id: idParam().nullable().optional() });
export const superFetchRateRequest = z.object({ output_id: id(), liked: z.boolean().nullable(), organization_id: idParam().nullable().optional() });

/** 'stopped': the user stopped it (issue 30 item 1); its text so far is kept and charged. */
export const SUPER_FETCH_OUTPUT_STATUSES = ['pending', 'streaming', 'done', 'failed', 'stopped'] as const;
export type SuperFetchOutputStatus = (typeof SUPER_FETCH_OUTPUT_STATUSES)[number];

export const superFetchOutput = z.object({
  output_id: z.number(),
  run_id: z.number(),
  /** 1-based place in its run. */
  position: z.number(),
  /** null while pending; the text so far while streaming, kept when it failed part-way or was stopped. */
  content: z.string().nullable(),
  status: z.enum(SUPER_FETCH_OUTPUT_STATUSES),
  liked: z.boolean().nullable(),
  error_code: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  abilities: z.object({ rate: z.boolean(), stop: z.boolean() }),
});
export type SuperFetchOutput = z.infer<typeof superFetchOutput>;

export const superFetchRun = z.object({
  run_id: z.number(),
  assistant_id: z.number(),
  inputs: z.object(Object.fromEntries(SUPER_FETCH_INPUTS.map((k) => [k, z.string()])) as Record<SuperFetchInputKey, z.ZodString>),
  feedback: z.object({ input: z.string(), liked: z.boolean().nullable(), run_id: z.number().nullable() }).nullable(),
  /** The prompt the outputs were written from (the `enhancePrompt` of the event). */
  prompt: z.string(),
  file: z.object({ file_id: z.number().nullable(), name: z.string(), truncated: z.boolean() }).nullable(),
  /** Outputs asked for; fewer exist when the balance covered fewer. */
  requested: z.number(),
  outputs: z.array(superFetchOutput),
  createdAt: z.string(),
});
export type SuperFetchRun = z.infer<typeof superFetchRun>;

export const superFetchHistory = z.object({ runs: z.array(superFetchRun), total: z.number() });
export type SuperFetchHistory = z.infer<typeof superFetchHistory>;
export const superFetchCleared = z.object({ deleted: z.number() });

/**
 * `super_fetch_outputs` (§7 real-time: outputs, enhancePrompt). While streaming (`stream: true`) each entry
 * carries only the new text (`delta`) of its output (DESIGN.md §6: frames carry deltas); when an output ends
 * (`stream: false`) the entry is the whole presented output.
 */
export interface SuperFetchOutputsPayload {
  run_id: number;
  assistant_id: number;
  stream: boolean;
  outputs: (SuperFetchOutput | { output_id: number; position: number; delta: string })[];
  enhancePrompt: string;
}
