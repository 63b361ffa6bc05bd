// The shared code and phone inputs of the sign-in screens: what the browser and the keypad are told, and
// that a typed value reaches the screen (the screens' own tests cover them in use).
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderScreen } from '../../test/render';
import { CodeField } from './CodeField';
import { PhoneField } from './PhoneField';

function Code({ digits }: { digits?: number }) {
  const [value, setValue] = useState('');
  return (
    <>
      <CodeField label="Code" digits={digits} value={value} onChange={setValue} />
      <output data-testid="value">{value}</output>
    </>
  );
}

describe('CodeField', () => {
  it('asks for a one-time code of so many digits on a numeric keypad, focused and required', async () => {
    renderScreen(<Code digits={6} />);
    const input = screen.getByLabelText(/^Code/, { selector: 'input' });
    expect(input).toHaveFocus();
    expect(input).toBeRequired();
    expect(input).toHaveAttribute('autocomplete', 'one-time-code');
    expect(input).toHaveAttribute('inputmode', 'numeric');
    expect(input).toHaveAttribute('pattern', '[0-9]*');
    expect(input).toHaveAttribute('maxlength', '6');
    await userEvent.setup({ delay: null }).type(input, '1234567');
    expect(screen.getByTestId('value')).toHaveTextContent(/^123456$/);
  });

  it('takes any text when no length is given (recovery codes have letters)', async () => {
    renderScreen(<Code />);
    const input = screen.getByLabelText(/^Code/, { selector: 'input' });
    expect(input).toHaveAttribute('inputmode', 'text');
    expect(input).not.toHaveAttribute('maxlength');
    await userEvent.setup({ delay: null }).type(input, 'ab12-cd34');
    expect(screen.getByTestId('value')).toHaveTextContent('ab12-cd34');
  });
});

describe('PhoneField', () => {
  it('is a required phone input the browser may fill, and lets the screen override what it sets', () => {
    renderScreen(
      <>
        <PhoneField label="Mobile phone" />
        <PhoneField label="Other phone" required={false} />
      </>,
    );
    const input = screen.getByLabelText(/^Mobile phone/, { selector: 'input' });
    expect(input).toHaveAttribute('type', 'tel');
    expect(input).toHaveAttribute('autocomplete', 'tel');
    expect(input).toHaveAttribute('inputmode', 'tel');
    expect(input).toBeRequired();
    expect(screen.getByLabelText(/^Other phone/, { selector: 'input' })).not.toBeRequired();
  });
});
