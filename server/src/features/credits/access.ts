// Premium gate of generation (spec part 1 §6: regular users need has_access for chat and generation;
// part 2 §6: premium features are signalled by status 412, and the web then goes to /sorry).
import { ErrorIds } from '@pluma/common/errors';
import type { MessageKey } from '@pluma/common/messages';
import type { AppContext } from '../../context';
import { AppError } from '../../platform/http/errors';
import { accessOf } from '../users/access';

export const premiumRequired = (messageKey: MessageKey = 'premium_required') => new AppError(412, ErrorIds.premium, messageKey);

/** Refuses generation (412) without has_access or without words left. */
export async function assertCanGenerate(ctx: Pick<AppContext, 'db'>, user: { userId: number; availableWords: number }): Promise<void> {
  const access = await accessOf(ctx, user.userId);
  if (!access.hasAccess) throw premiumRequired();
  // Staff words read as unlimited (GET /api/users), so staff are never out of words.
  if (!access.staff && user.availableWords <= 0) throw premiumRequired('words_exhausted');
}
