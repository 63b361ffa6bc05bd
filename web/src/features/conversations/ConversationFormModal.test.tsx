import { act, fireEvent, screen, within } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n';
import { buildConversation } from '../../test/messages';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import { ConversationFormModal } from './ConversationFormModal';

afterEach(async () => {
  await i18n.changeLanguage('en');
});

function renderForm(conversation = buildConversation()) {
  const api = stubFetch({ 'GET /api/models': () => ({ body: [{ id: 'demo', label: 'Demo (offline)', provider: 'demo', isDefault: true }] }) });
  renderScreen(
    <Suspense fallback={null}>
      <ConversationFormModal opened onClose={vi.fn()} conversation={conversation} onSaved={vi.fn()} />
    </Suspense>,
    { session: fakeSession(buildUser()) },
  );
  return api;
}

const saves = (calls: { method: string }[]) => calls.filter((call) => call.method !== 'GET');

describe('Conversation form (spec part 2 §5): the rules of common/src/conversations.ts', () => {
  it('asks for a name, in English and Spanish', async () => {
    const { calls } = renderForm();
    const modal = await screen.findByTestId('conversation-form-modal');
    fireEvent.change(within(modal).getByTestId('conversation-name-input'), { target: { value: '   ' } });
    fireEvent.click(within(modal).getByRole('button', { name: 'Save' }));
    expect(await within(modal).findByText("The input can't be empty")).toBeInTheDocument();
    await act(() => setLanguage('es'));
    expect(await within(modal).findByText('El campo no puede estar vacío')).toBeInTheDocument();
    expect(saves(calls)).toEqual([]);
  });

  it('refuses a tag over 50 characters with the limit worded', async () => {
    const { calls } = renderForm(buildConversation({ tags: `ok,${'t'.repeat(51)}` }));
    const modal = await screen.findByTestId('conversation-form-modal');
    fireEvent.click(within(modal).getByRole('button', { name: 'Save' }));
    expect(await within(modal).findByText('Too long: at most 50 characters.')).toBeInTheDocument();
    await act(() => setLanguage('es'));
    expect(await within(modal).findByText('Demasiado largo: como máximo 50 caracteres.')).toBeInTheDocument();
    expect(saves(calls)).toEqual([]);
  });
});
