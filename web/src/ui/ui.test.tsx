import { MantineProvider } from '@mantine/core';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { LoadingScreen } from './LoadingScreen';
import '../i18n';
import { MemoryRouter, useNavigate } from 'react-router';
import { showError, showSuccess } from './alerts';
import { AppNotifications } from './AppNotifications';
import { copyToClipboard } from './clipboard';
import { ErrorAlert } from './ErrorAlert';
import { Modal } from './Modal';
import { SuccessBanner } from './SuccessBanner';
import { TooltipIconButton } from './TooltipIconButton';

const wrap = (ui: React.ReactNode) =>
  render(
    <MantineProvider>
      <MemoryRouter>{ui}</MemoryRouter>
    </MantineProvider>,
  );

describe('ErrorAlert and SuccessBanner (spec part 1 §4, §9)', () => {
  it('hides the red alert after 5 seconds and the green banner after 3', () => {
    vi.useFakeTimers();
    const onError = vi.fn();
    const onSuccess = vi.fn();
    wrap(
      <>
        <ErrorAlert message="Boom" onClose={onError} />
        <SuccessBanner message="Saved" onClose={onSuccess} />
      </>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Boom');
    expect(screen.getByRole('status')).toHaveTextContent('Saved');
    // 500px as Mantine writes it (rem × scale).
    expect(screen.getByTestId('error-alert').getAttribute('style')).toContain('max-width: calc(31.25rem');
    expect(screen.getByTestId('success-banner').getAttribute('style')).toContain('max-width: calc(31.25rem');
    act(() => vi.advanceTimersByTime(2999));
    expect(onSuccess).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onSuccess).toHaveBeenCalledTimes(1);
    act(() => vi.advanceTimersByTime(1999));
    expect(onError).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('can be dismissed', () => {
    const onClose = vi.fn();
    wrap(<ErrorAlert message="Boom" onClose={onClose} />);
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('shows app-wide alerts, announced by their role, and removes them on time', () => {
    vi.useFakeTimers();
    wrap(<AppNotifications />);
    act(() => {
      showError('Server down');
      showError('Server down');
      showSuccess('Copied');
    });
    expect(screen.getByRole('alert')).toHaveTextContent('Server down');
    expect(screen.getAllByTestId('app-error')).toHaveLength(1);
    expect(screen.getByRole('status')).toHaveTextContent('Copied');
    // 3 seconds, then the exit transition.
    act(() => vi.advanceTimersByTime(3000));
    act(() => vi.advanceTimersByTime(500));
    expect(screen.queryByText('Copied')).not.toBeInTheDocument();
    expect(screen.getByText('Server down')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(2000));
    act(() => vi.advanceTimersByTime(500));
    expect(screen.queryByText('Server down')).not.toBeInTheDocument();
  });

  it('lets an app-wide alert be dismissed', async () => {
    wrap(<AppNotifications />);
    act(() => showError('Server down'));
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByText('Server down')).not.toBeInTheDocument());
  });
});

describe('TooltipIconButton', () => {
  it('is named by its tooltip unless given a fuller label, and shows the tooltip on hover', async () => {
    const onClick = vi.fn();
    wrap(
      <>
        <TooltipIconButton tooltip="Copy" onClick={onClick}>
          <span aria-hidden>c</span>
        </TooltipIconButton>
        <TooltipIconButton tooltip="Edit" label="Edit Garden notes" disabled>
          <span aria-hidden>e</span>
        </TooltipIconButton>
      </>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Edit Garden notes' })).toBeDisabled();
    // No tooltip is mounted until the pointer first reaches its button (LazyTooltip); then it shows on
    // hover and hides on leaving, and the button is the same element throughout (a click is never lost).
    const copy = screen.getByRole('button', { name: 'Copy' });
    expect(screen.queryByRole('tooltip', { hidden: true })).toBeNull();
    fireEvent.mouseEnter(copy);
    expect(await screen.findByRole('tooltip', { name: 'Copy' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy' })).toBe(copy);
    // (jsdom has no layout, so floating-ui soon marks the tooltip's reference hidden: count hidden ones too.)
    fireEvent.mouseLeave(copy);
    await waitFor(() => expect(screen.queryByRole('tooltip', { hidden: true })).toBeNull());
    fireEvent.mouseEnter(copy);
    expect(await screen.findByRole('tooltip', { hidden: true })).toHaveTextContent('Copy');
    fireEvent.click(copy);
    expect(onClick).toHaveBeenCalledTimes(2);
  });
});

describe('Modal (spec part 2 §2)', () => {
  function Harness({ onConfirm }: { onConfirm?: () => void }) {
    const [opened, setOpened] = useState(true);
    return (
      <Modal opened={opened} onClose={() => setOpened(false)} title="Delete it?" onConfirm={onConfirm}>
        Body text
      </Modal>
    );
  }

  it('shows Cancel and Confirm only when a confirm callback exists', async () => {
    const onConfirm = vi.fn();
    wrap(<Harness onConfirm={onConfirm} />);
    const dialog = await screen.findByRole('dialog', { name: 'Delete it?' });
    expect(dialog).toHaveTextContent('Body text');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(onConfirm).toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('has no footer without a callback and closes with the close button', async () => {
    wrap(<Harness />);
    await screen.findByRole('dialog');
    expect(screen.queryByRole('button', { name: 'Confirm' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('closes when the page changes (e.g. a 412 on its way to /sorry)', async () => {
    function Leave() {
      const navigate = useNavigate();
      return <button onClick={() => navigate('/sorry')}>Leave</button>;
    }
    wrap(
      <>
        <Harness />
        <Leave />
      </>,
    );
    await screen.findByRole('dialog');
    fireEvent.click(screen.getByRole('button', { name: 'Leave', hidden: true }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

describe('copyToClipboard (spec part 1 §8)', () => {
  it('shows the success notice, or the spec failure text', async () => {
    wrap(<AppNotifications />);
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await act(async () => {
      expect(await copyToClipboard('https://x/reset', 'Enlace copiado al portapapeles.')).toBe(true);
    });
    expect(writeText).toHaveBeenCalledWith('https://x/reset');
    expect(screen.getByText('Enlace copiado al portapapeles.')).toBeInTheDocument();

    writeText.mockRejectedValueOnce(new Error('denied'));
    await act(async () => {
      expect(await copyToClipboard('x')).toBe(false);
    });
    expect(screen.getByText('Unable to copy content to clipboard. Please copy manually.')).toBeInTheDocument();
  });
});

describe('LoadingScreen (spec part 1 §2)', () => {
  it('offers a way out after 30 seconds', () => {
    vi.useFakeTimers();
    wrap(<LoadingScreen />);
    expect(screen.queryByTestId('loading-redirect')).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(29_999));
    expect(screen.queryByTestId('loading-redirect')).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
  });
});
