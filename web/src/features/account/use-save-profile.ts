// Saves profile changes and keeps the session's copy of the user (and the interface) in step.
import type { UpdateProfileRequest } from '@pluma/common/users';
import { useMutation } from '@tanstack/react-query';
import { useSession } from '../../platform/session/session-context';
import { applyLanguage } from '../../i18n';
import { updateProfile } from './profile-api';

export function useSaveProfile() {
  const session = useSession();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: async (user, changes: UpdateProfileRequest) => {
      // spec part 1 §9: the language is kept in localStorage and in the profile.
      if (changes.lang) applyLanguage(changes.lang);
      if (user && typeof user === 'object' && 'user_id' in user) session.setUser(user);
      else await session.reloadUser();
    },
  });
}
