// The shared error handler for screens: shows the alert, or goes to /sorry on a 412 (spec part 1 §8; the
// route change closes any open modal, ui/Modal.tsx).
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { showError } from './alerts';
import { describeError, type ErrorHandlingOptions } from './error-handler';

export function useErrorHandler() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return useCallback(
    (error: unknown, options?: ErrorHandlingOptions) => {
      const outcome = describeError(error, t, options);
      if (outcome.kind === 'alert') showError(outcome.message);
      if (outcome.kind === 'sorry') navigate('/sorry');
      return outcome;
    },
    [t, navigate],
  );
}
