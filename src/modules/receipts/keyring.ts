import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { calculateJwkThumbprint } from 'jose';
import { ConfigError } from '../../errors.js';

/** An Ed25519 key of the set: the public JWK (`kty`, `crv`, `x`) and its thumbprint as `kid`. */
export interface SigningKey {
  kid: string;
  publicJwk: { kty: 'OKP'; crv: 'Ed25519'; x: string };
  privateKey: KeyObject;
}

interface PrivateJwk {
  kty: string;
  crv: string;
  x: string;
  d: string;
}

/**
 * This process's private signing keys: from `SIGNING_KEYS` (a JWKS with private keys, for a real
 * deployment's secret store), or else a file (`SIGNING_KEYS_FILE`, by default in DATA_DIR),
 * which a rotation adds to. Private keys are never logged, served or stored anywhere else.
 */
export interface Keyring {
  /** Where the keys come from, for messages (never the keys). */
  readonly source: string;
  /** Whether `generate` can add a key (a file, not the environment). */
  readonly writable: boolean;
  /** The key with this id; a file is read again once when it is not there (another process rotated). */
  find(kid: string): Promise<SigningKey | undefined>;
  /** The key added last, if any. */
  newest(): Promise<SigningKey | undefined>;
  /** A new key, added to the file (mode 0600) before it is returned. */
  generate(): Promise<SigningKey>;
}

async function keyOf(jwk: PrivateJwk, where: string): Promise<SigningKey> {
  if (jwk?.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string' || typeof jwk.d !== 'string') {
    throw new ConfigError(`${where}: every key must be an Ed25519 private JWK (kty OKP, crv Ed25519, x and d)`);
  }
  const publicJwk = { kty: 'OKP' as const, crv: 'Ed25519' as const, x: jwk.x };
  const privateKey = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x, d: jwk.d }, format: 'jwk' });
  return { kid: await calculateJwkThumbprint(publicJwk, 'sha256'), publicJwk, privateKey };
}

function parseSet(text: string, where: string): PrivateJwk[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ConfigError(`${where}: not JSON (a JWKS: {"keys": [<Ed25519 private JWK>, ...]})`);
  }
  const keys = Array.isArray(parsed) ? parsed : (parsed as { keys?: unknown })?.keys;
  if (!Array.isArray(keys)) throw new ConfigError(`${where}: a JWKS needs a "keys" array`);
  return keys as PrivateJwk[];
}

export function openKeyring(o: { env?: string; file: string }): Keyring {
  const fromEnv = o.env?.trim() ? o.env : undefined;
  const source = fromEnv ? 'SIGNING_KEYS' : o.file;
  let loaded: Promise<SigningKey[]> | undefined;
  const read = async (): Promise<SigningKey[]> => {
    const text = fromEnv ?? (fs.existsSync(o.file) ? fs.readFileSync(o.file, 'utf8') : undefined);
    if (text === undefined) return [];
    return Promise.all(parseSet(text, source).map((k) => keyOf(k, source)));
  };
  const keys = () => (loaded ??= read().catch((err) => {
    loaded = undefined;
    throw err;
  }));
  return {
    source,
    writable: !fromEnv,
    async find(kid) {
      const found = (await keys()).find((k) => k.kid === kid);
      if (found || fromEnv) return found;
      loaded = undefined;
      return (await keys()).find((k) => k.kid === kid);
    },
    async newest() {
      return (await keys()).at(-1);
    },
    async generate() {
      if (fromEnv) throw new ConfigError('the signing keys come from SIGNING_KEYS: add a key there and activate it by its kid');
      const { privateKey } = generateKeyPairSync('ed25519');
      const jwk = privateKey.export({ format: 'jwk' }) as PrivateJwk;
      const existing = fs.existsSync(o.file) ? parseSet(fs.readFileSync(o.file, 'utf8'), source) : [];
      fs.mkdirSync(path.dirname(o.file), { recursive: true });
      // Written whole to a temporary file and renamed: a crash leaves the old set or the new one.
      const tmp = `${o.file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, `${JSON.stringify({ keys: [...existing, { kty: jwk.kty, crv: jwk.crv, x: jwk.x, d: jwk.d }] }, null, 2)}\n`, { mode: 0o600 });
      fs.renameSync(tmp, o.file);
      loaded = undefined;
      return keyOf(jwk, source);
    },
  };
}
