import { hash } from 'node:crypto';

// Fixed namespaces: credential ids must be identical across re-imports and engines.
const namespace = (uuid: string) => Buffer.from(uuid.replaceAll('-', ''), 'hex');
const CREDENTIAL_NAMESPACE = namespace('8f0b7c1e-3d57-5d7e-9a4e-6c2f1f0a9b31');
const LICENSEE_NAMESPACE = namespace('b7a3e0d2-61c4-5f8b-8e19-2d4c7a9f0e55');
const BROKERAGE_NAMESPACE = namespace('c1d9f4a6-2b8e-5a73-9c05-7e3b6d2a4f18');

/**
 * RFC 9562 version-5 UUID: SHA-1 of the namespace and the UTF-8 name, version and variant bits
 * set. Written here rather than taken from the uuid package: ingest derives two per row, and a
 * one-shot hash over one reused buffer is several times cheaper (docs/decisions/0008; ids are
 * pinned in the tests).
 */
let scratch = Buffer.alloc(256);
const VARIANT = '89ab89ab89ab89ab';
function uuidv5(name: string, ns: Buffer): string {
  const size = 16 + Buffer.byteLength(name, 'utf8');
  if (size > scratch.length) scratch = Buffer.alloc(size * 2);
  ns.copy(scratch, 0);
  scratch.write(name, 16, 'utf8');
  const x = hash('sha1', scratch.subarray(0, size), 'hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-5${x.slice(13, 16)}-${VARIANT[parseInt(x[16], 16)]}${x.slice(17, 20)}-${x.slice(20, 32)}`;
}

/** Canonical licence number: trimmed, upper-cased, inner white space removed. */
export function canonicalLicenseNumber(raw: string): string {
  return raw.replace(/\s+/g, '').toUpperCase();
}

export function canonicalState(raw: string): string {
  return raw.trim().toUpperCase();
}

export function credentialId(state: string, licenseNumber: string): string {
  return uuidv5(`${canonicalState(state)}|${canonicalLicenseNumber(licenseNumber)}`, CREDENTIAL_NAMESPACE);
}

export function licenseeId(key: string): string {
  return uuidv5(key, LICENSEE_NAMESPACE);
}

export function brokerageId(state: string, foldedName: string): string {
  return uuidv5(`${state}|${foldedName}`, BROKERAGE_NAMESPACE);
}

/** Case- and accent-insensitive form used for every name, city and brokerage match. */
export function fold(text: string): string {
  // Printable ASCII has no accents to strip and NFKD leaves it as it is.
  if (/^[\x20-\x7e]*$/.test(text)) return text.toLowerCase().replace(/\s+/g, ' ').trim();
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** At most this many terms per text filter: each term is one more predicate in the query. */
export const MAX_SEARCH_TERMS = 8;

/** Whitespace-separated search terms, folded and deduplicated; every term must match. */
export function searchTerms(text: string): string[] {
  return [...new Set(fold(text).split(' ').filter(Boolean))];
}
