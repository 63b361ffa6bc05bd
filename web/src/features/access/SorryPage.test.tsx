import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen } from '../../test/render';
import SorryPage from './SorryPage';

describe('/sorry (spec part 1 §8)', () => {
  it('names the premium error and offers Upgrade and Return to Home', () => {
    renderScreen(<SorryPage />, { route: '/sorry' });
    expect(screen.getByRole('heading', { level: 1, name: 'Upgrade to keep going' })).toBeInTheDocument();
    expect(screen.getByTestId('sorry-page')).toHaveTextContent('This is a premium feature. Please, upgrade your account.');
    expect(screen.getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/upgrade');
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
    expect(document.title).toContain('Upgrade to keep going');
  });
});
