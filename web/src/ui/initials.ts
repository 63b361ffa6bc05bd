// The letters shown in a user's avatar when there is no picture (the user menu, the profile page).
import type { CurrentUser } from '@pluma/common/users';

export function initials(user: Pick<CurrentUser, 'name' | 'last_name' | 'email'>): string {
  const letters = `${user.name.trim()[0] ?? ''}${user.last_name.trim()[0] ?? ''}`;
  return (letters || user.email[0] || '?').toUpperCase();
}
