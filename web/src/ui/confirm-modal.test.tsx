// The shared confirm-with-warning modal on its own: the warning, confirm to the caller, Cancel closes, and
// nothing to press twice while the call runs.
import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmModal } from './ConfirmModal';

function renderModal({ pending = false } = {}) {
  const onConfirm = vi.fn();
  const onClose = vi.fn();
  render(
    <MantineProvider>
      <MemoryRouter>
        <ConfirmModal opened onClose={onClose} title="Delete group" warning="Sales will be deleted. This cannot be undone." confirmLabel="Delete" onConfirm={onConfirm} pending={pending} data-testid="modal" />
      </MemoryRouter>
    </MantineProvider>,
  );
  return { onConfirm, onClose };
}

const button = (modal: HTMLElement, name: RegExp) => within(modal).getByRole('button', { name, hidden: true });

describe('ConfirmModal', () => {
  it('shows the warning and confirms with the red button', async () => {
    const { onConfirm, onClose } = renderModal();
    const modal = await screen.findByTestId('modal');
    expect(modal).toHaveTextContent('Sales will be deleted. This cannot be undone.');
    const confirm = button(modal, /^delete$/i);
    expect(confirm.getAttribute('style') ?? confirm.className).toMatch(/red/);
    fireEvent.click(confirm);
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('closes on Cancel without confirming', async () => {
    const { onConfirm, onClose } = renderModal();
    const modal = await screen.findByTestId('modal');
    fireEvent.click(button(modal, /cancel/i));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('while the call runs, the confirm button is busy and Cancel is disabled', async () => {
    renderModal({ pending: true });
    const modal = await screen.findByTestId('modal');
    expect(button(modal, /^delete$/i)).toHaveAttribute('data-loading', 'true');
    expect(button(modal, /cancel/i)).toBeDisabled();
  });
});
