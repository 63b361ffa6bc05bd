// Device tokens the server gave this browser when a user passed the second factor and asked to be
// remembered (issue 33): sent with every password sign-in, so a remembered account skips the code. Kept in
// local storage (one per account that asked, the newest 10); each is only good for its own account.
const KEY = 'pluma.trustedDevices';
const MAX = 10;

export function deviceTokens(): string[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(stored) ? stored.filter((token): token is string => typeof token === 'string').slice(0, MAX) : [];
  } catch {
    return [];
  }
}

export function rememberDeviceToken(token: string): void {
  try {
    localStorage.setItem(KEY, JSON.stringify([token, ...deviceTokens().filter((other) => other !== token)].slice(0, MAX)));
  } catch {
    // Storage full or off: the next sign-in asks for the code again.
  }
}
