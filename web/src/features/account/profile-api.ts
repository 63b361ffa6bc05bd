// Own-account calls (spec part 1 §7: PUT /users, DELETE /users; DESIGN.md §4 Auth: PUT /auth/password).
import type { ChangePasswordRequest } from '@pluma/common/auth';
import type { CurrentUser, UpdateProfileRequest } from '@pluma/common/users';
import { api } from '../../api/instance';

export const updateProfile = (changes: UpdateProfileRequest) => api.put<CurrentUser>('/users', changes);

export const deleteOwnAccount = () => api.delete<void>('/users');

/** Needs the current password; keeps this session and signs out every other device. */
export const changePassword = (body: ChangePasswordRequest) => api.put<void>('/auth/password', body);
