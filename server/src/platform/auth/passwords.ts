// argon2id with OWASP's minimum (m=19456 KiB, t=2, p=1); the full PHC string is stored.
import { hash, verify } from '@node-rs/argon2';

const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
// Verified against when the email is unknown, so timing does not reveal which emails exist.
let dummyHash: Promise<string> | undefined;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(phc: string | null | undefined, password: string): Promise<boolean> {
  if (!phc) {
    dummyHash ??= hashPassword('pluma-timing-equalizer');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(phc, password).catch(() => false);
}
