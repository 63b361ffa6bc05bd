// The shared error handler for screens: shows the alert, or closes modals and goes to /sorry on a 412.
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { showError } from './alerts';
import { describeError, type ErrorHandlingOptions } from './error-handler';
import { closeAllModals } from './modal-bus';

export function useErrorHandler() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return useCallback(
    (error: unknown, options?: ErrorHandlingOptions) => {
      const outcome = describeError(error, t, options);
      if (outcome.kind === 'alert') showError(outcome.message);
      if (outcome.kind === 'sorry') {
        closeAllModals();
        navigate('/sorry');
      }
      return outcome;
    },
    [t, navigate],
  );
}
