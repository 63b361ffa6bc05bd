// How a failed avatar call is shown (spec part 2 §8: for avatars a 412 is the message 'This is a premium
// feature. Please, upgrade your account.' instead of /sorry); a missing own key (409 ai_key_required) opens
// the prompt to add it; a 400's field messages go to the form.
import { useCallback } from 'react';
import { ApiError } from '../../api/api-error';
import { useErrorHandler } from '../../ui/use-error-handler';
import { isAiKeyRequired } from './avatars-api';

export function useAvatarErrors(options: { onKeyMissing?: () => void; onFieldErrors?: (details: Record<string, string>) => void } = {}) {
  const handleError = useErrorHandler();
  const { onKeyMissing, onFieldErrors } = options;
  return useCallback(
    (error: unknown) => {
      if (isAiKeyRequired(error) && onKeyMissing) return onKeyMissing();
      if (error instanceof ApiError && error.status === 400 && error.body?.details && onFieldErrors) return onFieldErrors(error.body.details);
      handleError(error, { premiumAsMessage: true, showValidation: true });
    },
    [handleError, onKeyMissing, onFieldErrors],
  );
}
