// The workflows calls (spec part 2 §7 "Workflows", "User workflows"): workflows (staff admins write them),
// the user's runs, saving the values string, and a step's prompt. Every call acts in the active organization
// (the API client appends its organization_id).
import type { TemplateList } from '@pluma/common/templates';
import type {
  CreateUserWorkflowRequest,
  CreateWorkflowRequest,
  UpdateUserWorkflowRequest,
  UpdateWorkflowRequest,
  UserWorkflow,
  UserWorkflowList,
  Workflow,
  WorkflowList,
} from '@pluma/common/workflows';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../api/instance';

export const WORKFLOWS_KEY = ['workflows'] as const;
export const USER_WORKFLOWS_KEY = ['user_workflows'] as const;
export const workflowKey = (id: number) => [...WORKFLOWS_KEY, 'one', id] as const;
export const userWorkflowKey = (id: number) => [...USER_WORKFLOWS_KEY, 'one', id] as const;

export function useWorkflows(query: string, page: number) {
  return useQuery({
    queryKey: [...WORKFLOWS_KEY, 'list', query, page],
    queryFn: ({ signal }) => api.get<WorkflowList>('/workflows', { query: { query: query || undefined, page }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useWorkflow(id: number, enabled = true) {
  return useQuery({ queryKey: workflowKey(id), queryFn: ({ signal }) => api.get<Workflow>(`/workflows/${id}`, { signal }), enabled });
}

export function useUserWorkflows(page: number) {
  return useQuery({
    queryKey: [...USER_WORKFLOWS_KEY, 'list', page],
    queryFn: ({ signal }) => api.get<UserWorkflowList>('/user_workflows', { query: { page }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useUserWorkflow(id: number) {
  return useQuery({ queryKey: userWorkflowKey(id), queryFn: ({ signal }) => api.get<UserWorkflow>(`/user_workflows/${id}`, { signal }) });
}

/** Public templates (the only ones a workflow may use), searched by name, for the admin's editor. */
export function usePublicTemplates(query: string) {
  return useQuery({
    queryKey: ['templates', 'workflow-picker', query],
    queryFn: ({ signal }) => api.get<TemplateList>('/templates', { query: { query: query || undefined, page: 1, sortBy: 'name_asc' }, signal }),
    select: (list) => list.templates.filter((t) => t.public),
    placeholderData: keepPreviousData,
  });
}

export const createWorkflow = (body: CreateWorkflowRequest) => api.post<Workflow>('/workflows', body);
export const updateWorkflow = (body: UpdateWorkflowRequest) => api.put<Workflow>('/workflows', body);
export const deleteWorkflow = (id: number) => api.delete<{ deleted: true }>(`/workflows/${id}`);
export const createUserWorkflow = (body: CreateUserWorkflowRequest) => api.post<UserWorkflow>('/user_workflows', body);
export const updateUserWorkflow = (body: UpdateUserWorkflowRequest) => api.put<UserWorkflow>('/user_workflows', body);
export const deleteUserWorkflow = (id: number) => api.delete<{ deleted: true }>(`/user_workflows/${id}`);
