// Submit state the sign-in screens share: the form-level error, the spinner while the call runs, and
// the generic way a failure becomes that error (spec part 1 §8). The error is kept as a key or as the
// failure itself and worded when drawn, so a language switch re-words it (ui/screen-text.ts).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/api-error';
import { screenText, type ScreenText } from '../../ui/screen-text';

export function useAuthSubmit(initialError: ScreenText | null = null) {
  const { t } = useTranslation();
  const [formError, setFormError] = useState<ScreenText | null>(initialError);
  const [submitting, setSubmitting] = useState(false);

  /** One submission: clears the last error, shows the spinner while `action` runs, hands a failure to `onFailure`. */
  const run = async (action: () => Promise<void>, onFailure: (error: unknown) => void) => {
    setFormError(null);
    setSubmitting(true);
    try {
      await action();
    } catch (error) {
      onFailure(error);
    } finally {
      setSubmitting(false);
    }
  };

  /** Shows a failure as the generic handler words it; 400/401 texts too, these screens have no other place for them. */
  const showFailure = (error: unknown) => setFormError({ failure: error, options: { showValidation: true } });

  /** The form-level error in the current language. */
  const formErrorText = screenText(formError, t);

  return { formError, formErrorText, setFormError, submitting, run, showFailure };
}

/** The per-field texts of a 400 validation error (worded by the server), or null for any other failure. */
export function validationDetails(error: unknown): Record<string, string> | null {
  return error instanceof ApiError && error.status === 400 && Object.keys(error.details).length > 0 ? error.details : null;
}
