// A software WebAuthn authenticator for API tests (issue 33 item 3): it answers the server's options as a
// platform authenticator would — an ES256 key pair per credential, "none" attestation, authenticator data
// and signatures built by the WebAuthn rules (https://www.w3.org/TR/webauthn-3/ §6.1, §6.5) with node's
// crypto — so @simplewebauthn/server checks real bytes. The journeys use Chromium's virtual authenticator.
import { isoCBOR } from '@simplewebauthn/server/helpers';
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  userHandle: string;
  rpId: string;
  counter: number;
}

interface Options {
  challenge: string;
  rp?: { id?: string };
  rpId?: string;
  user?: { id: string };
  allowCredentials?: { id: string }[];
}

/** Flags of authenticator data: user present, user verified, attested credential data included. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export class SoftAuthenticator {
  readonly credentials = new Map<string, Credential>();

  constructor(readonly origin: string) {}

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  private authData(rpId: string, flags: number, counter: number, attested?: Buffer) {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  /** navigator.credentials.create: a new discoverable credential; the JSON @simplewebauthn/browser would send. */
  create(options: Options, { origin = this.origin }: { origin?: string } = {}) {
    const rpId = options.rp?.id ?? new URL(origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x as string, 'base64url')],
        [-3, Buffer.from(jwk.y as string, 'base64url')],
      ]),
    );
    const id = randomBytes(16);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, id, Buffer.from(cose)]);
    const authData = this.authData(rpId, UP | UV | AT, 0, attested);
    const attestationObject = isoCBOR.encode(new Map<string, string | Map<string, string> | Uint8Array>([['fmt', 'none'], ['attStmt', new Map<string, string>()], ['authData', authData]]));
    this.credentials.set(b64url(id), { id, privateKey, userHandle: options.user?.id ?? '', rpId, counter: 0 });
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge, origin)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /**
   * navigator.credentials.get: an assertion by `credentialId` (else the first allowed one it holds, else its first).
   * `counter` sets the signature counter to send (a regression test sends a stale one).
   */
  get(options: Options, { origin = this.origin, credentialId, counter }: { origin?: string; credentialId?: string; counter?: number } = {}) {
    const id = credentialId ?? options.allowCredentials?.find((allowed) => this.credentials.has(allowed.id))?.id ?? [...this.credentials.keys()][0];
    const credential = this.credentials.get(id);
    if (!credential) throw new Error(`no credential ${id}`);
    credential.counter = counter ?? credential.counter + 1;
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, origin);
    const authData = this.authData(options.rpId ?? credential.rpId, UP | UV, credential.counter);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id,
      rawId: id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
    };
  }
}
