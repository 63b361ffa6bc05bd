import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen } from '../../test/render';
import { OutOfCredits } from './OutOfCredits';

describe('Out-of-credits notice (spec part 1 §2)', () => {
  it('offers Get Access Now and Return to Home and names support', () => {
    renderScreen(<OutOfCredits />);
    expect(screen.getByRole('link', { name: 'Get Access Now' })).toHaveAttribute('href', '/pricing');
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
    expect(screen.getByText(/Get a subscription to keep using Pluma, or contact support/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'support@example.com' })).toHaveAttribute('href', 'mailto:support@example.com');
  });

  it('has an avatars variant and a chat variant with an Upgrade link', () => {
    renderScreen(
      <>
        <OutOfCredits variant="avatars" testId="avatars" />
        <OutOfCredits variant="chat" testId="chat" />
      </>,
    );
    expect(screen.getByTestId('avatars')).toHaveTextContent('Creating avatars is a paid feature');
    expect(screen.getByTestId('chat')).toHaveTextContent('More conversations and content need a paid subscription.');
    expect(screen.getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/upgrade');
    expect(screen.getAllByRole('link', { name: 'Get Access Now' })).toHaveLength(2);
  });
});
