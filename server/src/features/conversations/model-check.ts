// A model id given by a client must be one this server offers (spec part 2 §9 models); null = Unset. In an
// organization with its own OpenAI key, the models that key reaches count too (models/offered.ts).
import { ErrorIds } from '@pluma/common/errors';
import type { AppContext } from '../../context';
import { AppError, badRequest } from '../../platform/http/errors';
import { offeredModelsIn } from '../models';

export async function assertOfferedModel(ctx: AppContext, model: string | null | undefined, organizationId: number | null = null): Promise<void> {
  if (!model) return;
  const offered = await offeredModelsIn(ctx, organizationId);
  if (!offered) throw new AppError(503, ErrorIds.provider, 'ai_unavailable');
  if (!offered.some((m) => m.id === model)) throw badRequest('message_model_unknown', { model: 'message_model_unknown' }, { model });
}
