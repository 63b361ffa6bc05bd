// The JSON of a training (spec part 2 §3 "Training: training_id, name, file, file_id"), with abilities.
import type { publicTraining, Training, TrainingStatus } from '@pluma/common/trainings';
import type { z } from 'zod';
import type { Actor } from '../../platform/auth/actor';
import { trainingPolicy, type TrainingRow } from './policy';

export function presentTraining(actor: Actor, row: TrainingRow): Training {
  return {
    training_id: row.trainingId,
    avatar_id: row.avatarId,
    user_id: row.userId,
    organization_id: row.organizationId,
    name: row.name,
    base_model: row.baseModel,
    status: row.status as TrainingStatus,
    progress: row.progress,
    file: row.file,
    file_id: row.fileId,
    examples: row.examples,
    fine_tuned_model: row.fineTunedModel,
    selected: row.selected,
    polling: row.polling,
    error: row.errorCode ? { code: row.errorCode, message: row.errorMessage ?? '' } : null,
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    abilities: trainingPolicy.abilities(actor, row),
  };
}

/** GET /trainings/public/all: a public avatar's finished training, names only (its model is its author's). */
export function presentPublicTraining(row: TrainingRow): z.infer<typeof publicTraining> {
  return { training_id: row.trainingId, avatar_id: row.avatarId, name: row.name, base_model: row.baseModel, finishedAt: row.finishedAt?.toISOString() ?? null };
}
