import addressparser from 'nodemailer/lib/addressparser';
import { describe, expect, it } from 'vitest';
import { parseEmailAddress } from '../../src/domain/email-address.js';

const ok = (raw: string) => {
  const r = parseEmailAddress(raw);
  if (!r.ok) throw new Error(`refused ${JSON.stringify(raw)}: ${r.error}`);
  return r;
};
const refused = (raw: string) => {
  const r = parseEmailAddress(raw);
  if (r.ok) throw new Error(`accepted ${JSON.stringify(raw)} as ${r.address}`);
  return r.error;
};

describe('one plain e-mail address', () => {
  it('when a plain address is entered then it is kept lower-cased, its domain in punycode, and its limit key drops a +tag', () => {
    expect(ok('name@example.com')).toEqual({ ok: true, address: 'name@example.com', limitKey: 'name@example.com' });
    expect(ok(' First.Last+Tag@Sub.Example.CO.UK ')).toEqual({ ok: true, address: 'first.last+tag@sub.example.co.uk', limitKey: 'first.last@sub.example.co.uk' });
    expect(ok('user@BÜCHER.example').address).toBe('user@xn--bcher-kva.example');
    expect(ok('a+x@example.com').limitKey).toBe(ok('a+y@example.com').limitKey);
    expect(ok('a+x@example.com').limitKey).toBe('a@example.com');
    expect(ok("o'brien!#$%&*/=?^_`{|}~-@example.com").address).toBe("o'brien!#$%&*/=?^_`{|}~-@example.com");
    expect(ok('a@xn--p1ai.xn--p1ai').address).toBe('a@xn--p1ai.xn--p1ai');
  });

  it('when a list, a name, a group, a comment, brackets or quotes are entered then each is refused with what to type instead', () => {
    // What the mailer's parser (nodemailer) would read from each: never the one plain address typed.
    expect(addressparser('newcomer@example.com;1')).toEqual([{ address: 'newcomer@example.com', name: '' }, { address: '', name: '1' }]);
    expect(addressparser('x<attacker@evil.io>')).toEqual([{ address: 'attacker@evil.io', name: 'x' }]);
    expect(addressparser('a(comment)@example.com')).toEqual([{ address: 'a@example.com', name: 'comment' }]);
    expect(addressparser('a b@example.com')).toEqual([{ address: 'b@example.com', name: 'a' }]);

    for (const list of ['newcomer@example.com;1', 'newcomer@example.com;2', 'a@example.com,b@example.com', 'a@example.com, b@example.com', 'g: a@example.com;']) {
      expect(refused(list), list).toMatch(/^enter one e-mail address, such as name@example.com/);
    }
    for (const decorated of ['x<attacker@evil.io>', '"x y"@example.com', '"a"@example.com', 'a(comment)@example.com', 'a@example.com (x)', 'Name <a@example.com>', '<a@example.com>', 'a b@example.com', 'a@example.com\nb', 'a\\@b@example.com', 'a@[192.0.2.1]']) {
      expect(refused(decorated), decorated).toMatch(/^enter the address alone, such as name@example.com/);
    }
  });

  it('when the parts before or after @ are not shaped like an address then it says which', () => {
    for (const none of ['', '   ', 'not-an-address']) expect(refused(none)).toBe('enter an e-mail address, such as name@example.com');
    expect(refused('a@@example.com')).toMatch(/one @/);
    for (const local of ['@example.com', '.a@example.com', 'a.@example.com', 'a..b@example.com', 'jöe@example.com']) expect(refused(local), local).toMatch(/^the part before @/);
    for (const domain of ['a@', 'a@b', 'a@example', 'a@-example.com', 'a@example-.com', 'a@exa_mple.com', 'a@example..com', 'a@example.com.', 'a@.example.com', 'a@192.0.2.1', `a@${'b'.repeat(64)}.com`]) {
      expect(refused(domain), domain).toMatch(/^the part after @ must be a domain, such as example.com/);
    }
  });

  it('when the address is over 254 characters (after punycode) or its local part over 64 then it is refused', () => {
    const domain = (n: number) => `${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(n)}.com`;
    expect(ok(`${'a'.repeat(64)}@${domain(57)}`).address).toHaveLength(254);
    expect(`${'a'.repeat(64)}@${domain(58)}`).toHaveLength(255);
    expect(refused(`${'a'.repeat(64)}@${domain(58)}`)).toBe('an e-mail address is at most 254 characters');
    // 250 characters as typed, 256 once the domain is in punycode.
    const idn = `${'a'.repeat(60)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(54)}.bücher`;
    expect(idn).toHaveLength(250);
    expect(refused(idn)).toBe('an e-mail address is at most 254 characters');
    expect(ok(`${'a'.repeat(64)}@example.com`).address).toHaveLength(76);
    expect(refused(`${'a'.repeat(65)}@example.com`)).toBe('the part before @ is at most 64 characters');
    expect(refused(`${'a'.repeat(100_000)}@example.com`)).toBe('an e-mail address is at most 254 characters');
  });

  it('when an address is accepted then the mailer reads exactly that one address from it', () => {
    for (const raw of ['name@example.com', 'first.last+tag@sub.example.co.uk', 'user@bücher.example', "o'brien!#$%&*/=?^_`{|}~-@example.com", 'UPPER@Example.COM']) {
      const { address } = ok(raw);
      expect(addressparser(address), raw).toEqual([{ address, name: '' }]);
    }
  });
});
