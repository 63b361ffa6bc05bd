// The shared cancel-with-a-reason modal on its own: the warning, no error while typing, the required
// message once confirming was tried, the trimmed reason to the caller, and an empty form when it opens again.
import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { CancelWithReasonModal } from './CancelWithReasonModal';

function Harness({ onConfirm, callError = null }: { onConfirm: (reason: string) => void; callError?: string | null }) {
  const [opened, setOpened] = useState(true);
  return (
    <MantineProvider>
      <MemoryRouter>
        <button onClick={() => setOpened(true)}>open</button>
        <CancelWithReasonModal
          opened={opened}
          title="Cancel subscription"
          summary={<p>Pro plan</p>}
          warning="This cannot be undone."
          reasonLabel="Cancel reason"
          reasonPlaceholder="Why?"
          reasonRequired="You must include a cancel reason."
          reasonTestId="reason"
          confirmLabel="Cancel subscription"
          keepLabel="Keep subscription"
          pending={false}
          reasonError={null}
          callError={callError}
          onConfirm={onConfirm}
          onClose={() => setOpened(false)}
          data-testid="modal"
        />
      </MemoryRouter>
    </MantineProvider>
  );
}

const confirmButton = (modal: HTMLElement) => within(modal).getByRole('button', { name: 'Cancel subscription', hidden: true });

describe('CancelWithReasonModal', () => {
  it('asks for 10 characters once confirming was tried, then gives the trimmed reason', async () => {
    const onConfirm = vi.fn();
    render(<Harness onConfirm={onConfirm} />);
    const modal = await screen.findByTestId('modal');
    expect(within(modal).getByTestId('cancel-warning')).toHaveTextContent('This cannot be undone.');
    expect(within(modal).getByText('Pro plan')).toBeInTheDocument();
    fireEvent.change(within(modal).getByTestId('reason'), { target: { value: 'too dear' } });
    expect(within(modal).queryByText('You must include a cancel reason.')).not.toBeInTheDocument();
    fireEvent.click(confirmButton(modal));
    expect(within(modal).getByText('You must include a cancel reason.')).toBeInTheDocument();
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.change(within(modal).getByTestId('reason'), { target: { value: '  Too expensive now  ' } });
    fireEvent.click(confirmButton(modal));
    expect(onConfirm).toHaveBeenCalledWith('Too expensive now');
  });

  it('starts empty when it opens again', async () => {
    render(<Harness onConfirm={() => {}} />);
    const modal = await screen.findByTestId('modal');
    fireEvent.change(within(modal).getByTestId('reason'), { target: { value: 'short' } });
    fireEvent.click(confirmButton(modal));
    fireEvent.click(within(modal).getByRole('button', { name: 'Keep subscription', hidden: true }));
    fireEvent.click(screen.getByRole('button', { name: 'open', hidden: true }));
    const reopened = await screen.findByTestId('modal');
    expect(within(reopened).getByTestId('reason')).toHaveValue('');
    expect(within(reopened).queryByText('You must include a cancel reason.')).not.toBeInTheDocument();
  });

  it("shows the call's failure", async () => {
    render(<Harness onConfirm={() => {}} callError="Only an active subscription can be cancelled." />);
    expect(await screen.findByTestId('cancel-error')).toHaveTextContent('Only an active subscription can be cancelled.');
  });
});
