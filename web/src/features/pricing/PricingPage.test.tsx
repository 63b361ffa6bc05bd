import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen, stubFetch } from '../../test/render';
import PricingPage from './PricingPage';
import type { AvailableProduct } from './products-api';

const product: AvailableProduct = {
  product_id: 1,
  name: 'Base',
  description: 'A plan',
  short_description: null,
  price: 10,
  sale_price: null,
  word_amount: null,
  is_subscription: false,
  subscription_period: null,
  subscription_interval: null,
  expiration_days: null,
  free_trial_length: null,
  image: null,
};

describe('Pricing screen', () => {
  it("shows 'No products available.' when the catalogue is missing or empty", async () => {
    stubFetch({});
    renderScreen(<PricingPage />);
    expect(await screen.findByText('No products available.')).toBeInTheDocument();
  });

  it('shows one card per product with its monthly price in USD and a buy link', async () => {
    stubFetch({
      'GET /api/products/available': () => ({
        body: [
          { ...product, product_id: 2, name: 'Pro', short_description: 'For creators', price: 1200, is_subscription: true, subscription_period: 'year', subscription_interval: 1 },
          { ...product, product_id: 3, name: 'Pack', price: 49.5, sale_price: 39, word_amount: 50000, free_trial_length: 7 },
        ],
      }),
    });
    renderScreen(<PricingPage />);
    const cards = await screen.findAllByTestId('product-card');
    expect(cards).toHaveLength(2);
    expect(cards[0]).toHaveTextContent('$100.00');
    expect(cards[0]).toHaveTextContent('/ month');
    expect(cards[0]).toHaveTextContent('Unlimited words');
    expect(cards[1]).toHaveTextContent('$39.00');
    expect(cards[1]).toHaveTextContent('$49.50');
    expect(cards[1]).toHaveTextContent('50,000 words');
    expect(cards[1]).toHaveTextContent('7-day free trial');
    expect(screen.getByRole('link', { name: 'Buy now: Pro' })).toHaveAttribute('href', '/checkout/2');
  });
});
