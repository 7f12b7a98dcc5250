import { domainToASCII } from 'node:url';

// One plain e-mail address, as the dashboard takes it: `local@domain`, nothing around it. Mail
// libraries read an address field as a list of mailboxes with names, groups and comments
// (nodemailer reads `a@example.com;1` as two entries and `x<b@evil.io>` as b@evil.io), so anything
// beyond the plain form is refused rather than guessed at. Whatever passes is read by them as
// exactly this one address (test/unit/email-address.test.ts checks it against nodemailer's parser).

export type EmailAddress =
  | {
      ok: true;
      /** Lower-case, the domain in punycode: what is stored and mailed. */
      address: string;
      /** The address without a `+tag`, which the per-address rate limit counts. */
      limitKey: string;
    }
  | { ok: false; error: string };

/** RFC 5322 atext, ASCII only: a dot-atom is runs of it joined by single dots. */
const DOT_ATOM = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const LIST = /[,;]/;
// Names, angle brackets, quotes, comments, groups, domain literals, escapes, spaces, controls.
const DECORATED = /[<>"()[\]:\\\s\u0000-\u001f\u007f]/;

export function parseEmailAddress(raw: string): EmailAddress {
  const fail = (error: string): EmailAddress => ({ ok: false, error });
  const text = raw.trim().toLowerCase();
  if (!text.includes('@')) return fail('enter an e-mail address, such as name@example.com');
  if (text.length > 1000) return fail('an e-mail address is at most 254 characters');
  if (LIST.test(text)) return fail('enter one e-mail address, such as name@example.com (no commas or semicolons)');
  if (DECORATED.test(text)) return fail('enter the address alone, such as name@example.com: no name, angle brackets, quotes, comments or spaces');
  const parts = text.split('@');
  if (parts.length !== 2) return fail('an e-mail address has one @, such as name@example.com');
  const [local, domain] = parts;
  if (local.length > 64) return fail('the part before @ is at most 64 characters');
  if (!DOT_ATOM.test(local)) return fail("the part before @ can hold letters a-z, digits and ! # $ % & ' * + - / = ? ^ _ ` { | } ~, with single dots between them");
  // IDNA (UTS #46) as the WHATWG URL parser does it: lower-case punycode, '' when not a domain.
  const ascii = domain ? domainToASCII(domain) : '';
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l)) || /^\d+$/.test(labels[labels.length - 1])) {
    return fail('the part after @ must be a domain, such as example.com');
  }
  const address = `${local}@${ascii}`;
  if (address.length > 254) return fail('an e-mail address is at most 254 characters');
  return { ok: true, address, limitKey: `${local.replace(/\+.*$/, '') || local}@${ascii}` };
}
