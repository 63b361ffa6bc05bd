// A model id given by a client must be one this server offers (spec part 2 §9 models); null = Unset.
import { ErrorIds } from '@pluma/common/errors';
import type { AppContext } from '../../context';
import { AppError, badRequest } from '../../platform/http/errors';

export async function assertOfferedModel(ctx: AppContext, model: string | null | undefined): Promise<void> {
  if (!model) return;
  const ai = ctx.services.ai;
  if (!ai) throw new AppError(503, ErrorIds.provider, 'ai_unavailable');
  const offered = await ai.listModels();
  if (!offered.some((m) => m.id === model)) throw badRequest('message_model_unknown', { model: 'message_model_unknown' }, { model });
}
