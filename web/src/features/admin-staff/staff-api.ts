// The staff page's calls (spec part 1 §7): GET /staff/admin/all, POST /staff, PUT /staff, DELETE /staff/{id};
// customers are found for "add" with GET /users/admin/all.
import type { CustomerListResponse } from '@pluma/common/admin-users';
import type { StaffRole } from '@pluma/common/constants';
import type { StaffListResponse, StaffRecord } from '@pluma/common/staff';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../api/instance';

export const STAFF_KEY = ['admin', 'staff'] as const;

export function useStaff(page: number, query: string) {
  return useQuery({
    queryKey: [...STAFF_KEY, page, query],
    queryFn: () => api.get<StaffListResponse>('/staff/admin/all', { query: { page, ...(query ? { query } : {}) } }),
    placeholderData: keepPreviousData,
  });
}

/** Customers whose email matches, for the add-staff search (any sign-up date). */
export function useCustomerMatches(query: string) {
  return useQuery({
    queryKey: ['admin', 'staff-candidates', query],
    queryFn: () => api.get<CustomerListResponse>('/users/admin/all', { query: { query, field: 'email', sort: 'email', direction: 'asc' } }),
    enabled: query.length >= 2,
  });
}

export const addStaff = (email: string, role: StaffRole) => api.post<StaffRecord>('/staff', { email, role });
export const changeStaffRole = (staffId: number, role: StaffRole) => api.put<StaffRecord>('/staff', { staff_id: staffId, role });
export const removeStaff = (staffId: number) => api.delete<void>(`/staff/${staffId}`);
