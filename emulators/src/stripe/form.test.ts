// The bracket form encoding the stripe SDK and Stripe.js send.
import { describe, expect, it } from 'vitest';
import { metadata, parseForm } from './form';

describe('parseForm', () => {
  it('nests brackets into objects and indexed or empty brackets into arrays', () => {
    const parsed = parseForm('items[0][price]=price_1&items[0][quantity]=2&items[1][price]=price_2&expand[]=a.b&expand[]=c&metadata[user id]=4%202&name=Ana+Mar%C3%ADa');
    expect(parsed).toEqual({
      items: [{ price: 'price_1', quantity: '2' }, { price: 'price_2' }],
      expand: ['a.b', 'c'],
      metadata: { 'user id': '4 2' },
      name: 'Ana María',
    });
  });

  it('orders indexed arrays numerically and accepts percent-encoded brackets', () => {
    const pairs = Array.from({ length: 12 }, (_, i) => `expand%5B${i}%5D=f${i}`).reverse().join('&');
    expect(parseForm(pairs).expand).toEqual(Array.from({ length: 12 }, (_, i) => `f${i}`));
  });

  it('treats an empty metadata value as a removal', () => {
    expect(metadata(parseForm('metadata[a]=&metadata[b]=2'), { a: '1', c: '3' })).toEqual({ b: '2', c: '3' });
    expect(metadata(parseForm('metadata='), { a: '1' })).toEqual({});
  });
});
