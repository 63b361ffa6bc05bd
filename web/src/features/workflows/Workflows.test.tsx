// The workflows screens (spec part 2 §2 "Workflows", §5 "Workflow field values", §8 'You don't have any
// workflows'; issue 14 item 3): the list (New workflow for admins only), Start (all fields required; creates
// the run, then saves the values as the escaped key=value string), the run's detail (values, steps, delete)
// and a step's output chat (Run sends the run and step: the server fills the prompt; Regenerate; Continue Generating).
import { decodeWorkflowValues } from '@pluma/common/rules/workflow-values';
import type { Message } from '@pluma/common/messages-api';
import type { UserWorkflow, Workflow } from '@pluma/common/workflows';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n';
import { buildMessage, buildMessagePage } from '../../test/messages';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import { setupFakeSocket } from '../../test/fake-socket';

configure({ asyncUtilTimeout: 5000 });

setupFakeSocket();

const { default: WorkflowsPage } = await import('./WorkflowsPage');
const { default: WorkflowPage } = await import('./WorkflowPage');
const { default: UserWorkflowsPage } = await import('./UserWorkflowsPage');
const { default: UserWorkflowPage } = await import('./UserWorkflowPage');
const { default: StepChatPage } = await import('./StepChatPage');
const { default: WorkflowEditorPage } = await import('./WorkflowEditorPage');

beforeAll(async () => {
  await i18n.loadNamespaces(['workflows', 'chat']);
  await i18n.loadLanguages('es');
});

beforeEach(async () => {
  await setLanguage('en');
});

const field = (name: string, type: 'text' | 'number' | 'select', order: number, options: string[] = [], value = '') => ({
  name,
  label: name,
  type,
  options,
  order,
  value,
  isValidField: true,
});

function workflow(overrides: Partial<Workflow> = {}): Workflow {
  return {
    workflow_id: 3,
    name: 'Blog pipeline',
    description: 'Draft then tweet',
    tags: ['blog'],
    templates: [
      { template_id: 1, name: 'Draft', description: 'A draft', position: 0 },
      { template_id: 2, name: 'Tweet', description: 'A tweet', position: 1 },
    ],
    fields: [field('Topic', 'text', 0), field('Words', 'number', 1), field('Tone', 'select', 2, ['formal', 'casual'])],
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    abilities: { edit: false, delete: false, start: true },
    ...overrides,
  };
}

function run(overrides: Partial<UserWorkflow> = {}): UserWorkflow {
  return {
    user_workflow_id: 5,
    workflow_id: 3,
    name: 'My run',
    values: 'Topic=cats\\, dogs',
    field_values: { Topic: 'cats, dogs' },
    fields: [field('Topic', 'text', 0, [], 'cats, dogs')],
    complete: true,
    user_workflow_templates: [
      { user_workflow_template_id: 1, position: 0, conversation_id: 11, template: { template_id: 1, name: 'Draft', description: '' }, last_answer: { message_id: 21, status: 'done', finish_reason: 'stop' } },
      { user_workflow_template_id: 2, position: 1, conversation_id: 12, template: { template_id: 2, name: 'Tweet', description: '' }, last_answer: null },
    ],
    organization_id: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    abilities: { edit: true, delete: true, run: true },
    ...overrides,
  };
}

const session = (role: 'admin' | null = null) => fakeSession(buildUser({ staff: role ? { staff_id: 1, role } : null }));
const mount = (ui: React.ReactElement, route: string, path: string, who = session()) =>
  renderScreen(<Suspense fallback={null}>{ui}</Suspense>, { route, path, session: who });

describe('/workflows', () => {
  it('lists the workflows; New workflow only for staff admins', async () => {
    stubFetch({ 'GET /api/workflows': () => ({ body: { workflows: [workflow()], total: 1, page: 1, pageSize: 24 } }) });
    const { unmount } = mount(<WorkflowsPage />, '/workflows', '/workflows');
    expect(await screen.findByText('Blog pipeline')).toBeInTheDocument();
    expect(screen.getByText('2 steps')).toBeInTheDocument();
    expect(screen.queryByTestId('new-workflow')).toBeNull();
    unmount();
    mount(<WorkflowsPage />, '/workflows', '/workflows', session('admin'));
    expect(await screen.findByTestId('new-workflow')).toHaveAttribute('href', '/workflows/new');
  });
});

describe('the admin editor', () => {
  const tpl = (template_id: number, name: string, isPublic: boolean) => ({ template_id, name, public: isPublic });

  it('offers public templates only and saves them in the order chosen', async () => {
    const { calls } = stubFetch({
      'GET /api/templates': () => ({ body: { templates: [tpl(1, 'Draft', true), tpl(2, 'Secret', false), tpl(4, 'Tweet', true)], total: 3, page: 1, pageSize: 24 } }),
      'POST /api/workflows': () => ({ status: 201, body: workflow({ workflow_id: 8 }) }),
    });
    mount(<WorkflowEditorPage />, '/workflows/new', '/workflows/new', session('admin'));
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('save-workflow'));
    expect(screen.getByText('Choose at least one template.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(screen.getByTestId('workflow-name'), { target: { value: 'Social' } });
    fireEvent.click(screen.getByTestId('add-template'));
    expect(await screen.findByRole('option', { name: 'Tweet', hidden: true })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Secret', hidden: true })).toBeNull();
    fireEvent.click(screen.getByRole('option', { name: 'Tweet', hidden: true }));
    fireEvent.click(screen.getByTestId('add-template'));
    fireEvent.click(await screen.findByRole('option', { name: 'Draft', hidden: true }));
    // Draft first: move it up.
    await user.click(screen.getAllByRole('button', { name: 'Move up' })[1] as HTMLElement);
    await user.click(screen.getByTestId('save-workflow'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/workflows/8'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Social', description: '', tags: [], template_ids: [1, 4] });
  });
});

describe('/workflows/{id} Start', () => {
  it('requires every field, then creates the run and saves the values as the escaped key=value string', async () => {
    const { calls } = stubFetch({
      'GET /api/workflows/3': () => ({ body: workflow() }),
      'POST /api/user_workflows': () => ({ status: 201, body: run({ values: '', field_values: {}, complete: false }) }),
      'PUT /api/user_workflows': () => ({ body: run() }),
    });
    mount(<WorkflowPage />, '/workflows/3', '/workflows/:workflowId');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('start-workflow'));
    expect(screen.getAllByText("The input can't be empty")).toHaveLength(4);
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);

    fireEvent.change(screen.getByTestId('run-name'), { target: { value: 'Spring posts' } });
    const form = within(screen.getByTestId('workflow-fields'));
    fireEvent.change(form.getByTestId('field-Topic'), { target: { value: 'cats, dogs = pets' } });
    fireEvent.change(form.getByTestId('field-Words'), { target: { value: '300' } });
    fireEvent.click(form.getByTestId('field-Tone'));
    fireEvent.click(await screen.findByRole('option', { name: 'casual', hidden: true }));
    await user.click(screen.getByTestId('start-workflow'));

    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/user_workflows/5'));
    const writes = calls.filter((c) => c.method !== 'GET');
    expect(writes.map((c) => `${c.method} ${c.url.split('?')[0]}`)).toEqual(['POST /api/user_workflows', 'PUT /api/user_workflows']);
    expect(writes[0]?.body).toEqual({ workflow_id: 3, name: 'Spring posts' });
    const values = (writes[1]?.body as { values: string }).values;
    expect(values).toBe('Topic=cats\\, dogs \\= pets,Words=300,Tone=casual');
    expect(decodeWorkflowValues(values)).toEqual({ Topic: 'cats, dogs = pets', Words: '300', Tone: 'casual' });
  });
});

describe('/user_workflows', () => {
  it("says 'You don't have any workflows' when empty, in English and Spanish", async () => {
    stubFetch({ 'GET /api/user_workflows': () => ({ body: { user_workflows: [], total: 0, page: 1, pageSize: 24 } }) });
    const { unmount } = mount(<UserWorkflowsPage />, '/user_workflows', '/user_workflows');
    expect(await screen.findByText("You don't have any workflows")).toBeInTheDocument();
    unmount();
    await setLanguage('es');
    mount(<UserWorkflowsPage />, '/user_workflows', '/user_workflows');
    expect(await screen.findByText('No tienes ningún flujo de trabajo')).toBeInTheDocument();
  });

  it('shows the values and the steps; step 2 runs once step 1 answered', async () => {
    stubFetch({ 'GET /api/user_workflows/5': () => ({ body: run() }) });
    mount(<UserWorkflowPage />, '/user_workflows/5', '/user_workflows/:userWorkflowId');
    expect(await screen.findByDisplayValue('cats, dogs')).toBeInTheDocument();
    const steps = screen.getAllByTestId('run-step');
    expect(within(steps[0] as HTMLElement).getByText('Answered')).toBeInTheDocument();
    expect(within(steps[1] as HTMLElement).getByTestId('run-step-button')).toBeEnabled();
    expect(within(steps[1] as HTMLElement).getByTestId('open-step')).toHaveAttribute('href', '/user_workflows/5/conversation/12');

    const user = userEvent.setup({ delay: null });
    await user.click(within(steps[1] as HTMLElement).getByTestId('run-step-button'));
    expect(screen.getByTestId('location')).toHaveTextContent('/user_workflows/5/conversation/12?run=1');
  });

  it('saves edited values as the key=value string; the server refusal shows under its field', async () => {
    let refuse = true;
    const { calls } = stubFetch({
      'GET /api/user_workflows/5': () => ({ body: run() }),
      'PUT /api/user_workflows': () =>
        refuse
          ? { status: 400, body: { error: 'validation_error', message: 'Please complete all the required fields to save.', details: { Topic: 'This field needs a number.' } } }
          : { body: run({ values: 'Topic=a\\=b', field_values: { Topic: 'a=b' }, fields: [field('Topic', 'text', 0, [], 'a=b')] }) },
    });
    mount(<UserWorkflowPage />, '/user_workflows/5', '/user_workflows/:userWorkflowId');
    const input = await screen.findByDisplayValue('cats, dogs');
    // Unsaved changes keep the steps from running (they would use the saved values).
    fireEvent.change(input, { target: { value: 'a=b' } });
    expect(within(screen.getAllByTestId('run-step')[0] as HTMLElement).getByTestId('run-step-button')).toBeDisabled();
    fireEvent.click(screen.getByTestId('save-values'));
    expect(await screen.findByText('This field needs a number.')).toBeInTheDocument();
    refuse = false;
    fireEvent.click(screen.getByTestId('save-values'));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([
      { user_workflow_id: 5, values: 'Topic=a\\=b' },
      { user_workflow_id: 5, values: 'Topic=a\\=b' },
    ]);
    expect(await screen.findByText('The values were saved.')).toBeInTheDocument();
  });

  it('keeps step 2 from running before step 1 has an answer', async () => {
    const fresh = run();
    fresh.user_workflow_templates[0]!.last_answer = null;
    stubFetch({ 'GET /api/user_workflows/5': () => ({ body: fresh }) });
    mount(<UserWorkflowPage />, '/user_workflows/5', '/user_workflows/:userWorkflowId');
    const steps = await screen.findAllByTestId('run-step');
    expect(within(steps[0] as HTMLElement).getByTestId('run-step-button')).toBeEnabled();
    expect(within(steps[1] as HTMLElement).getByTestId('run-step-button')).toBeDisabled();
    expect(screen.getByText('Uses the answer of step 1')).toBeInTheDocument();
  });

  it('deletes the run after confirming and goes back to the list', async () => {
    const { calls } = stubFetch({
      'GET /api/user_workflows/5': () => ({ body: run() }),
      'DELETE /api/user_workflows/5': () => ({ body: { deleted: true } }),
    });
    mount(<UserWorkflowPage />, '/user_workflows/5', '/user_workflows/:userWorkflowId');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('delete-user-workflow'));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/user_workflows'));
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/api/user_workflows/5']);
  });
});

describe('a step output chat', () => {
  const answer = (overrides: Partial<Message> = {}) =>
    buildMessage({ message_id: 21, conversation_id: 11, role: 'assistant', content: 'A draft about cats', finish_reason: 'length', status: 'done', ...overrides });

  it('Continue Generating goes on with an answer cut off at the length limit', async () => {
    const prompt = 'Write about cats, dogs';
    const { calls } = stubFetch({
      'GET /api/user_workflows/5': () => ({ body: run() }),
      'GET /api/messages/conversation/11': () => ({ body: buildMessagePage([buildMessage({ message_id: 20, conversation_id: 11, role: 'user', content: prompt }), answer()]) }),
      'POST /api/messages': () => ({
        status: 201,
        body: { user_message: null, assistant_message: answer({ message_id: 22, content: null, status: 'pending', finish_reason: null }) },
      }),
    });
    mount(<StepChatPage />, '/user_workflows/5/conversation/11', '/user_workflows/:userWorkflowId/conversation/:conversationId');
    expect(await screen.findByText('Step 1: Draft')).toBeInTheDocument();
    expect(await screen.findByText('A draft about cats')).toBeInTheDocument();
    expect(screen.getByTestId('next-step')).toHaveAttribute('href', '/user_workflows/5/conversation/12');
    const user = userEvent.setup({ delay: null });

    // The answer was cut off at the length limit: Continue Generating goes on with it.
    await user.click(screen.getByTestId('step-continue'));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ conversation_id: 11, message_id: 21, stream: true });
  });

  it('Regenerate writes the last answer again', async () => {
    const { calls } = stubFetch({
      'GET /api/user_workflows/5': () => ({ body: run() }),
      'GET /api/messages/conversation/11': () => ({ body: buildMessagePage([answer({ finish_reason: 'stop' })]) }),
      'POST /api/messages': () => ({ status: 201, body: { user_message: null, assistant_message: answer({ message_id: 22, content: null, status: 'pending', finish_reason: null }) } }),
    });
    mount(<StepChatPage />, '/user_workflows/5/conversation/11', '/user_workflows/:userWorkflowId/conversation/:conversationId');
    const user = userEvent.setup({ delay: null });
    await screen.findByText('A draft about cats');
    expect(screen.getByTestId('step-continue')).toBeDisabled();
    await user.click(screen.getByTestId('step-regenerate'));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ conversation_id: 11, message_id: 21, stream: true, regenerate: true }));
  });

  it('opened with ?run=1 runs the step once: the run and step sent as a message, the server fills the prompt', async () => {
    const prompt = 'Write about cats, dogs';
    const { calls } = stubFetch({
      'GET /api/user_workflows/5': () => ({ body: run() }),
      'GET /api/messages/conversation/11': () => ({ body: buildMessagePage([]) }),
      'POST /api/messages': () => ({
        status: 201,
        body: {
          user_message: buildMessage({ message_id: 30, conversation_id: 11, role: 'user', content: prompt }),
          assistant_message: answer({ message_id: 31, content: null, status: 'pending', finish_reason: null }),
        },
      }),
    });
    mount(<StepChatPage />, '/user_workflows/5/conversation/11?run=1', '/user_workflows/:userWorkflowId/conversation/:conversationId');
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST').map((c) => c.url.split('?')[0])).toEqual(['/api/messages']));
    // No prompt text leaves the browser: the server fills the step's template (issue 30 item 9).
    expect(calls.filter((c) => c.method === 'POST')[0]?.body).toEqual({ content: '', user_workflow_id: 5, conversation_id: 11, stream: true });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/user_workflows\/5\/conversation\/11$/));
  });

  it('Stop ends the answer being written, in English and Spanish (issue 30 item 1)', async () => {
    for (const [lang, label] of [['en', 'Stop generating'], ['es', 'Detener']] as const) {
      setLanguage(lang);
      const { calls } = stubFetch({
        'GET /api/user_workflows/5': () => ({ body: run() }),
        'GET /api/messages/conversation/11': () => ({ body: buildMessagePage([answer({ content: 'A draft', status: 'streaming', finish_reason: null })]) }),
        'POST /api/messages/21/stop': () => ({ body: answer({ content: 'A draft', finish_reason: 'stopped' }) }),
      });
      const { unmount } = mount(<StepChatPage />, '/user_workflows/5/conversation/11', '/user_workflows/:userWorkflowId/conversation/:conversationId');
      const user = userEvent.setup({ delay: null });
      await user.click(await screen.findByRole('button', { name: label }));
      await waitFor(() => expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual(['/api/messages/21/stop']));
      await waitFor(() => expect(screen.queryByTestId('step-stop')).not.toBeInTheDocument());
      unmount();
    }
    setLanguage('en');
  });

  it('says so when the conversation is not a step of this run', async () => {
    stubFetch({ 'GET /api/user_workflows/5': () => ({ body: run() }) });
    mount(<StepChatPage />, '/user_workflows/5/conversation/99', '/user_workflows/:userWorkflowId/conversation/:conversationId');
    expect(await screen.findByText('This conversation is not a step of this workflow.')).toBeInTheDocument();
  });
});
