import { SignJWT, type JWTPayload } from 'jose';
import { BadRequestError, ConflictError, NotFoundError, UnavailableError } from '../../errors.js';
import type { Keyring } from './keyring.js';
import type { KeyRow, SigningKeysRepo } from './signing-keys.repo.js';

/** The media types of the two receipts (RFC 8725's explicit typing, in the JWS header's `typ`). */
export const RECEIPT_TYPES = { verification: 'verification-receipt+jwt', review: 'verification-review+jwt', job: 'verification-job-summary+jwt' } as const;

/** A JWKS entry: the public key, and `revoked` (as OpenID Federation 1.0 writes it) once marked compromised. */
export interface PublishedKey {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
  revoked?: { revoked_at: number; reason: 'keyCompromise' };
}

export interface Signed {
  jws: string;
  kid: string;
  signed_at: string;
}

const ACTIVE_KEY_TTL_MS = 1_000;

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/**
 * Signs receipts with the active key, which the side store names so that every process signs with
 * the same one and hears of a rotation within a second; the private halves come from each
 * process's key ring. The first signature on an empty store makes the ring's newest key (or a new
 * one) active.
 */
export function createSigner(deps: { repo: SigningKeysRepo; keyring: Keyring; issuer: string; now: () => Date }) {
  const { repo, keyring, now } = deps;
  // The active key, read at most once a second: another process's rotation signs here within a second.
  let cached: { row: KeyRow; until: number } | undefined;
  async function activeKey() {
    const at = Date.now();
    let active = cached && cached.until > at ? cached.row : await repo.active();
    if (!active) {
      const first = (await keyring.newest()) ?? (keyring.writable ? await keyring.generate() : undefined);
      if (!first) throw new UnavailableError(`no signing key: ${keyring.source} holds none`);
      await repo.activateFirst(first.kid, first.publicJwk, now());
      active = await repo.active();
      if (!active) throw new UnavailableError('no signing key is active (the last was marked compromised): an operator runs `lvs-admin signing-keys rotate`');
    }
    const key = await keyring.find(active.kid);
    if (!key) throw new UnavailableError(`the active signing key ${active.kid} is not in this process's key set (${keyring.source})`);
    cached = { row: active, until: at + ACTIVE_KEY_TTL_MS };
    return key;
  }
  const published = (k: KeyRow): PublishedKey => ({
    ...k.public_jwk,
    kid: k.kid,
    alg: 'EdDSA',
    use: 'sig',
    ...(k.compromised_at ? { revoked: { revoked_at: seconds(k.compromised_at), reason: 'keyCompromise' as const } } : {}),
  });
  const compromised = async (kid: string) => (await repo.get(kid))?.status === 'compromised';
  /** Makes a new key (added to the key file), or the set's key `kid`, active; the one before it is retired and still verifies. */
  async function rotate(kid?: string) {
    let key;
    if (kid) {
      key = await keyring.find(kid);
      if (!key) throw new NotFoundError(`no key ${kid} in ${keyring.source}`);
      if (await compromised(kid)) throw new ConflictError(`key ${kid} is marked compromised and cannot sign again`);
    } else {
      if (!keyring.writable) throw new BadRequestError('the signing keys come from SIGNING_KEYS: add a key to it, restart, and rotate to it with its kid');
      key = await keyring.generate();
    }
    const row = await repo.rotateTo(key.kid, key.publicJwk, now());
    cached = undefined;
    return { kid: row.kid, status: row.status, created_at: row.created_at };
  }
  return {
    issuer: deps.issuer,
    /** Signs `claims` as a compact JWS (a JWT with `iss` and `iat` set here) of the given type. */
    async sign(claims: JWTPayload, typ: string): Promise<Signed> {
      const key = await activeKey();
      const at = now();
      const jws = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'EdDSA', typ, kid: key.kid })
        .setIssuer(deps.issuer)
        .setIssuedAt(Math.floor(at.getTime() / 1000))
        .sign(key.privateKey);
      return { jws, kid: key.kid, signed_at: at.toISOString() };
    },
    /** Why this process could not sign with the active key (it is not in its key set), or undefined. */
    async problem(): Promise<string | undefined> {
      const active = await repo.active();
      if (active && !(await keyring.find(active.kid))) {
        return `the active receipt signing key ${active.kid} is not in this process's key set (${keyring.source}): receipts answer 503 until every API process has it (SIGNING_KEYS or SIGNING_KEYS_FILE, docs/verdicts.md)`;
      }
      return undefined;
    },
    /** Every key that ever signed, as a JWKS. */
    async jwks(): Promise<{ keys: PublishedKey[] }> {
      return { keys: (await repo.list()).map(published) };
    },
    async keys() {
      return (await repo.list()).map((k) => ({ kid: k.kid, status: k.status, created_at: k.created_at, retired_at: k.retired_at, compromised_at: k.compromised_at }));
    },
    rotate,
    /**
     * Lists `kid` as compromised in the JWKS; receipts it signed are signed again when next asked
     * for. The active key is rotated away from first (to a new key, or to `next`).
     */
    async markCompromised(kid: string, next?: string) {
      const row = await repo.get(kid);
      if (!row) throw new NotFoundError(`no signing key ${kid}`);
      if (row.status === 'active') await rotate(next);
      const marked = (await repo.markCompromised(kid, now()))!;
      cached = undefined;
      return { kid: marked.kid, status: marked.status, compromised_at: marked.compromised_at };
    },
  };
}
export type Signer = ReturnType<typeof createSigner>;
