// The browser side of passkeys (issue 33 item 3): @simplewebauthn/browser turns the server's options into
// navigator.credentials calls and the answer into JSON. Loaded on use, so the login page's first download
// stays within its budget (bench/bundle-size.mjs).
import type { AuthResponse } from '@pluma/common/users';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import {
  passkeyRegistrationOptions,
  passkeySecondFactor,
  passkeySecondFactorOptions,
  passkeySignIn,
  passkeySignInOptions,
  registerPasskey,
  type Passkey,
} from './auth-api';

const browser = () => import('@simplewebauthn/browser');

/** Whether this browser can use passkeys at all (the buttons hide where it cannot). */
export const passkeysSupported = () => typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/** The person closed the browser's passkey prompt, or it timed out: not an error worth a red alert. */
export const isPasskeyCancelled = (error: unknown) =>
  error instanceof Error && (error.name === 'NotAllowedError' || (error as { code?: string }).code === 'ERROR_CEREMONY_ABORTED');

export async function addPasskey(name: string): Promise<Passkey> {
  const { startRegistration } = await browser();
  const optionsJSON = (await passkeyRegistrationOptions()) as unknown as PublicKeyCredentialCreationOptionsJSON;
  return registerPasskey(name, await startRegistration({ optionsJSON }));
}

export async function signInWithPasskey(): Promise<AuthResponse> {
  const { startAuthentication } = await browser();
  const optionsJSON = (await passkeySignInOptions()) as unknown as PublicKeyCredentialRequestOptionsJSON;
  return passkeySignIn(await startAuthentication({ optionsJSON }));
}

export async function passSecondFactorWithPasskey(challenge: string, rememberDevice: boolean) {
  const { startAuthentication } = await browser();
  const optionsJSON = (await passkeySecondFactorOptions(challenge)) as unknown as PublicKeyCredentialRequestOptionsJSON;
  return passkeySecondFactor(challenge, await startAuthentication({ optionsJSON }), rememberDevice);
}
