// Trainings (spec part 2 §3 "Training", §2 "Training actions: sync, refine, execute, delete", §7 "Trainings";
// part 1 §1: billed to the user's own AI-provider account; issue 13 item 4): requests, responses and the
// live progress event, shared by server and web.
import { z } from 'zod';
import { id, idParam, text } from './schema-kit';

export const TRAINING_NAME_MAX = 120;
export const TRAININGS_PAGE_SIZE = 24;
export const TRAININGS_MAX_PAGE_SIZE = 100;
/** OpenAI fine-tunes with at least 10 examples. */
export const MIN_TRAINING_EXAMPLES = 10;
/** Examples kept in one training file (the most recent liked outputs first, then the files). */
export const MAX_TRAINING_EXAMPLES = 500;
/** spec part 2 §9: training takes up to 15 minutes; the job polls the provider that long. */
export const TRAINING_POLL_MINUTES = 15;
/** Base models the training offers (OpenAI's fine-tunable snapshots). */
export const TRAINING_BASE_MODELS = ['gpt-4o-mini-2024-07-18', 'gpt-4.1-mini-2025-04-14'] as const;
export const DEFAULT_TRAINING_BASE_MODEL = TRAINING_BASE_MODELS[0];
/** spec part 1 §1: what the provider bills for one training, as quoted in each language. */
export const TRAINING_COST_QUOTE = { en: { min: 20, max: 60 }, es: { min: 20, max: 100 } } as const;
export const TRAINING_STATUSES = ['draft', 'queued', 'validating_files', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type TrainingStatus = (typeof TRAINING_STATUSES)[number];
/** Statuses in which a job polls the provider. */
export const ACTIVE_TRAINING_STATUSES: readonly TrainingStatus[] = ['queued', 'validating_files', 'running'];

/** The live event of a training's progress (not named by the spec; room user-{user_id} of the owner). */
export const TRAINING_EVENT = 'training';

const trainingName = text({ error: 'avatar_name_required' }).trim().min(1, { error: 'avatar_name_required' }).max(TRAINING_NAME_MAX);

export const trainingIdParams = z.object({ id: idParam() });

export const listTrainingsQuery = z.object({
  avatar_id: idParam().optional(),
  query: text().trim().max(200).optional(),
  organization_id: idParam().optional(),
  limit: z.coerce.number().int().min(1).max(TRAININGS_MAX_PAGE_SIZE).default(TRAININGS_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type ListTrainingsQuery = z.infer<typeof listTrainingsQuery>;

export const createTrainingRequest = z.object({
  avatar_id: id(),
  name: trainingName,
  base_model: z.enum(TRAINING_BASE_MODELS).optional(),
  organization_id: idParam().nullable().optional(),
});
export type CreateTrainingRequest = z.input<typeof createTrainingRequest>;

/** PUT /trainings: rename; `selected` makes a finished training's model the avatar's model (one per avatar). */
export const updateTrainingRequest = z.object({
  training_id: id(),
  name: trainingName.optional(),
  selected: z.boolean().optional(),
});
export type UpdateTrainingRequest = z.input<typeof updateTrainingRequest>;

/** POST /trainings/execute, /sync, /refine {training_id}. */
export const trainingActionRequest = z.object({ training_id: id() });

export const TRAINING_ACTIONS = ['read', 'update', 'execute', 'sync', 'refine', 'select', 'delete'] as const;
export type TrainingAction = (typeof TRAINING_ACTIONS)[number];

export const training = z.object({
  training_id: z.number(),
  avatar_id: z.number(),
  user_id: z.number(),
  organization_id: z.number().nullable(),
  name: z.string(),
  base_model: z.string(),
  status: z.enum(TRAINING_STATUSES),
  progress: z.number(),
  /** The training file's name and the provider's file id (spec part 2 §3). */
  file: z.string().nullable(),
  file_id: z.string().nullable(),
  examples: z.number().nullable(),
  fine_tuned_model: z.string().nullable(),
  selected: z.boolean(),
  /** A job polls the provider now; false with an active status means "sync to check again". */
  polling: z.boolean(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  abilities: z.object(Object.fromEntries(TRAINING_ACTIONS.map((a) => [a, z.boolean()])) as Record<TrainingAction, z.ZodBoolean>),
});
export type Training = z.infer<typeof training>;

export const trainingList = z.object({ trainings: z.array(training), total: z.number() });
export type TrainingList = z.infer<typeof trainingList>;

/** GET /trainings/public/all: finished trainings of public avatars, names only. */
export const publicTraining = z.object({ training_id: z.number(), avatar_id: z.number(), name: z.string(), base_model: z.string(), finishedAt: z.string().nullable() });
export const publicTrainingList = z.object({ trainings: z.array(publicTraining), total: z.number() });

/** The `training` socket event: the saved row after each change (status, progress, model, error). */
export interface TrainingEventPayload {
  training_id: number;
  avatar_id: number;
  status: TrainingStatus;
  progress: number;
  training: Training;
}
