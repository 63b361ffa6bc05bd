import { beforeAll, describe, expect, it } from 'vitest';
import { loadServerMessages, localizeServerText, serverMessageKey } from './server-text';

describe('server texts on screen', () => {
  // Loaded after the first paint in the app (at once in tests, which have no paint timing): awaited here.
  beforeAll(() => loadServerMessages());

  it('knows our messages in either language and re-words them', () => {
    expect(serverMessageKey('Email or password is incorrect, please try again.')).toBe('invalid_credentials');
    expect(serverMessageKey('Tu contraseña actual es incorrecta.')).toBe('current_password_invalid');
    expect(localizeServerText('Email is invalid.', 'es')).toBe('El correo electrónico no es válido.');
    expect(localizeServerText('El correo electrónico no es válido.', 'en')).toBe('Email is invalid.');
  });

  it('leaves any other text as sent', () => {
    expect(serverMessageKey('Too weak.')).toBeNull();
    expect(localizeServerText('Too weak.', 'es')).toBe('Too weak.');
  });
});
