// The call of a form that makes a new avatar (add, clone, combine): on success it says so, refreshes the
// lists, closes the dialog and opens the new avatar (spec part 2 §2: after a combine, /avatars/{avatar_id});
// a missing own key shows the prompt, a 400's field messages go to the form.
import type { AvatarWithFiles } from '@pluma/common/avatars';
import type { UseFormReturnType } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { showSuccess } from '../../ui/alerts';
import { AVATARS_KEY } from './avatars-api';
import { useAvatarErrors } from './use-avatar-errors';

export function useNewAvatar<Values, Input>(options: {
  form: UseFormReturnType<Values>;
  call: (input: Input) => Promise<AvatarWithFiles>;
  doneText: string;
  onClose: () => void;
}) {
  const { form, call, doneText, onClose } = options;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [keyMissing, setKeyMissing] = useState(false);
  const onError = useAvatarErrors({ onKeyMissing: () => setKeyMissing(true), onFieldErrors: (details) => form.setErrors(details) });
  const mutation = useMutation({
    mutationFn: call,
    onSuccess: (created) => {
      showSuccess(doneText);
      void queryClient.invalidateQueries({ queryKey: AVATARS_KEY });
      onClose();
      void navigate(`/avatars/${created.avatar_id}`);
    },
    onError,
  });
  return { mutation, keyMissing };
}
