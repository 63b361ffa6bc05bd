import { screen } from '@testing-library/react';
import { SAMPLE_PRODUCTS } from '@pluma/common/sample-products';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import { renderScreen, setLanguage, stubFetch } from '../../test/render';
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
  organization_id: null,
  abilities: { read: true, buy: true, update: false, delete: false },
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

  it('shows the seeded sample plans in Spanish on Spanish screens, and the operator\'s own texts as typed', async () => {
    const { starter, pro } = SAMPLE_PRODUCTS;
    stubFetch({
      'GET /api/products/available': () => ({
        body: [
          { ...product, product_id: 1, name: starter.name, description: starter.description, short_description: starter.shortDescription },
          // A sample plan the operator edited: the edited text is theirs, the untouched name is still ours.
          { ...product, product_id: 2, name: pro.name, description: pro.description, short_description: 'Para equipos de ventas' },
          { ...product, product_id: 3, name: 'Plan Agencia', description: 'Hecho a mano', short_description: null },
        ],
      }),
    });
    await setLanguage('es');
    renderScreen(<PricingPage />);
    const cards = await screen.findAllByTestId('product-card');
    expect(cards[0]).toHaveTextContent('Inicial');
    expect(cards[0]).toHaveTextContent('50.000 palabras · 30 días');
    // One number format on the card: the subtitle and the words line group thousands alike.
    expect(cards[0].textContent?.match(/\d{1,3}([.,]\d{3})+(?= palabras)/g)?.every((n) => n.includes('.'))).toBe(true);
    expect(cards[0]).not.toHaveTextContent(starter.shortDescription);
    expect(screen.getByRole('link', { name: /Inicial/ })).toHaveAttribute('href', '/checkout/1');
    expect(cards[1]).toHaveTextContent('Para equipos de ventas');
    expect(cards[2]).toHaveTextContent('Plan Agencia');
    expect(cards[2]).toHaveTextContent('Hecho a mano');
    await setLanguage('en');
  });

  it('keeps the English sample texts identical to the ones the server seeds', () => {
    for (const [key, texts] of Object.entries(SAMPLE_PRODUCTS)) {
      expect(en.pricing.samples[key as keyof typeof SAMPLE_PRODUCTS]).toEqual(texts);
    }
  });
});
