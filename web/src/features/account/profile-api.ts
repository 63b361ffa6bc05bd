// Own-account calls (spec part 1 §7: PUT /users, DELETE /users).
import type { CurrentUser, UpdateProfileRequest } from '@pluma/common/users';
import { api } from '../../api/instance';

export const updateProfile = (changes: UpdateProfileRequest) => api.put<CurrentUser>('/users', changes);

export const deleteOwnAccount = () => api.delete<void>('/users');
