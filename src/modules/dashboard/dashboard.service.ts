import { createCipheriv, createDecipheriv, hash, hkdfSync, randomBytes } from 'node:crypto';
import type { Clock } from '../../domain/clock.js';
import { parseEmailAddress } from '../../domain/email-address.js';
import { BadRequestError, TooManyAttemptsError, UnauthorizedError, UnavailableError } from '../../errors.js';
import type { Mailer } from '../../mail/mailer.js';
import type { Account } from '../accounts/account.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { Meter } from '../accounts/metering.js';
import type { DashboardRepo } from './dashboard.repo.js';

const HOUR_MS = 3600_000;
/** E-mail links work once, for 24 hours. */
export const LINK_TTL_MS = 24 * HOUR_MS;
/** Sessions end 7 days after sign-in (or at sign-out). */
export const SESSION_TTL_MS = 7 * 24 * HOUR_MS;
/** Link requests (sign-up, sign-in, resend) per hour: per address, and per client IP. */
export const LINK_REQUESTS_PER_ADDRESS = 5;
export const LINK_REQUESTS_PER_IP = 20;
/** A secret just made waits this long for the page its form redirects to. */
const FLASH_TTL_MS = 10 * 60_000;

const tokenHash = (token: string) => hash('sha256', token, 'hex');
const newToken = () => randomBytes(32).toString('base64url');
const SERVICE = 'Licensee Verification Service';
// A flash is sealed with a key derived from the session token, which the store never holds (it
// keeps the token's SHA-256): the raw key or secret waiting there is unreadable without the cookie.
const flashKey = (session: string) => Buffer.from(hkdfSync('sha256', session, '', 'lvs dashboard flash', 32));

export type LinkState = 'valid' | 'expired' | 'used' | 'unknown';

export interface DashboardDeps {
  repo: DashboardRepo;
  accounts: AccountsService;
  meter: Meter;
  mailer: Mailer;
  clock: Clock;
  /** Where links in e-mails point: the configured PUBLIC_BASE_URL, never a request's Host. */
  publicBaseUrl: string;
}

/**
 * Self-service accounts by e-mail link: one form asks for a link, the link signs in (and, the
 * first time, creates the free account). Every request for a link answers the same whether or
 * not the address has an account; the e-mail says which applies (docs/decisions/0009).
 */
export function createDashboardService({ repo, accounts, meter, mailer, clock, publicBaseUrl }: DashboardDeps) {
  const base = publicBaseUrl.replace(/\/+$/, '');
  const linkUrl = (token: string) => `${base}/dashboard/link?token=${encodeURIComponent(token)}`;

  async function limit(key: string, max: number, what: string) {
    const now = clock.now().getTime();
    const windowStart = new Date(now - (now % HOUR_MS));
    if ((await repo.hit(key, windowStart)) > max) {
      const retryAfter = Math.max(1, Math.ceil((windowStart.getTime() + HOUR_MS - now) / 1000));
      throw new TooManyAttemptsError(`too many requests for a link ${what}: try again in ${Math.ceil(retryAfter / 60)} minutes`, retryAfter);
    }
  }

  async function sendLink(email: string, purpose: 'verify' | 'sign_in', subject: string, intro: string) {
    const token = newToken();
    await repo.insertLink(tokenHash(token), email, purpose, new Date(clock.now().getTime() + LINK_TTL_MS));
    const link = linkUrl(token);
    await mailer.send({
      to: email,
      subject,
      text: `${intro}\n\n${link}\n\nThe link works once, for 24 hours. If you did not ask for it, ignore this e-mail: nothing happens without it.\n\n${SERVICE}\n`,
      link,
    });
  }

  return {
    /** Whether a link can be sent: off when no mail server is configured beside production stores. */
    get open() {
      return mailer.mode !== 'off';
    },

    /**
     * Sends the link that applies: a verification link for a new address on sign-up, a sign-in
     * link for an address with an account, and for sign-in without one, a note pointing to
     * sign-up. The caller shows the same page in every case.
     */
    async requestLink(kind: 'sign-up' | 'sign-in', rawEmail: string, clientIp: string): Promise<string> {
      const parsed = parseEmailAddress(rawEmail);
      if (!parsed.ok) throw new BadRequestError(parsed.error);
      const email = parsed.address;
      if (mailer.mode === 'off') throw new UnavailableError('sign-up and sign-in by e-mail are off: this deployment has no mail server configured');
      await limit(`ip:${clientIp}`, LINK_REQUESTS_PER_IP, 'from your network');
      await limit(`email:${parsed.limitKey}`, LINK_REQUESTS_PER_ADDRESS, 'for this address');
      const account = await accounts.accountByEmail(email);
      if (account) {
        const intro = kind === 'sign-up' ? `This address already has an account. To sign in to the ${SERVICE} dashboard, open:` : `To sign in to the ${SERVICE} dashboard, open:`;
        await sendLink(email, 'sign_in', `Sign in to ${SERVICE}`, intro);
      } else if (kind === 'sign-up') {
        await sendLink(email, 'verify', `Confirm your e-mail for ${SERVICE}`, `To confirm this address and create your free ${SERVICE} account (no payment card), open:`);
      } else {
        await mailer.send({
          to: email,
          subject: `Sign in to ${SERVICE}`,
          text: `Someone asked to sign in to the ${SERVICE} dashboard with this address, which has no account. To create one, sign up at:\n\n${base}/dashboard/sign-up\n\nIf it was not you, ignore this e-mail.\n\n${SERVICE}\n`,
        });
      }
      return email;
    },

    /** What a link is and the address it signs in as, without using it (the page that asks to confirm). */
    async linkState(token: string): Promise<{ state: LinkState; email?: string; purpose?: 'verify' | 'sign_in' }> {
      const link = await repo.link(tokenHash(token));
      if (!link) return { state: 'unknown' };
      const state = link.used_at ? 'used' : link.expires_at.getTime() <= clock.now().getTime() ? 'expired' : 'valid';
      return { state, email: link.email, purpose: link.purpose };
    },

    /**
     * Uses a link: creates the account on first verification, and opens a session; returns its
     * token. The session it replaces (the browser's cookie, whichever account) ends, so that a
     * switch of accounts leaves no session behind.
     */
    async useLink(token: string, replacing?: string): Promise<{ session: string; account: Account; created: boolean }> {
      const used = await repo.useLink(tokenHash(token), clock.now());
      if (!used) {
        const { state } = await this.linkState(token);
        throw new BadRequestError(
          state === 'expired' ? 'this link has expired: ask for a new one' : state === 'used' ? 'this link has been used already: ask for a new one' : 'this link is not valid: ask for a new one',
        );
      }
      let account = await accounts.accountByEmail(used.email);
      const created = !account && used.purpose === 'verify';
      if (!account && used.purpose === 'verify') account = await accounts.createSelfServeAccount(used.email);
      if (!account) throw new BadRequestError('this address has no account any more: sign up again');
      const session = newToken();
      await repo.insertSession(tokenHash(session), account.id, new Date(clock.now().getTime() + SESSION_TTL_MS));
      if (replacing) await repo.deleteSession(tokenHash(replacing));
      return { session, account, created };
    },

    /** The account a session cookie belongs to; undefined when it is unknown or ended. */
    async sessionAccount(session: string | undefined): Promise<Account | undefined> {
      if (!session) return undefined;
      const accountId = await repo.sessionAccount(tokenHash(session), clock.now());
      return accountId ? accounts.accountById(accountId) : undefined;
    },

    async requireSession(session: string | undefined): Promise<Account> {
      const account = await this.sessionAccount(session);
      if (!account) throw new UnauthorizedError('your session has ended: sign in again');
      return account;
    },

    signOut: async (session: string | undefined) => {
      if (session) await repo.deleteSession(tokenHash(session));
    },

    /**
     * Keeps `value` (a secret just made) for the next GET of `page` in this session, once:
     * forms redirect after their POST, so a reload neither repeats the action nor shows it again.
     */
    async flash(session: string | undefined, page: string, value: object) {
      if (!session) return;
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', flashKey(session), iv);
      const sealed = Buffer.concat([iv, cipher.update(JSON.stringify(value), 'utf8'), cipher.final(), cipher.getAuthTag()]);
      await repo.putFlash(tokenHash(session), page, sealed.toString('base64url'), new Date(clock.now().getTime() + FLASH_TTL_MS));
    },

    /** What was kept for `page` in this session, taken: a second read finds nothing. */
    async takeFlash<T extends object>(session: string | undefined, page: string): Promise<T | undefined> {
      if (!session) return undefined;
      const payload = await repo.takeFlash(tokenHash(session), page, clock.now());
      if (!payload) return undefined;
      const sealed = Buffer.from(payload, 'base64url');
      try {
        const decipher = createDecipheriv('aes-256-gcm', flashKey(session), sealed.subarray(0, 12));
        decipher.setAuthTag(sealed.subarray(-16));
        return JSON.parse(Buffer.concat([decipher.update(sealed.subarray(12, -16)), decipher.final()]).toString('utf8')) as T;
      } catch {
        return undefined;
      }
    },

    /** The account page: plan, this month's usage (by endpoint and by day) and the active keys. */
    async overview(account: Account) {
      const [usage, keys] = await Promise.all([meter.usage(account), accounts.listKeys(account.id)]);
      return { account, usage, keys };
    },

    keys: (account: Account) => accounts.listKeys(account.id),
    createKey: (account: Account, label: string | null) => accounts.createKey(account.id, label),
    /** The dashboard may revoke the last key (its page says the account then has no working key). */
    revokeKey: (account: Account, keyId: string) => accounts.revokeKey(account.id, keyId, { allowLast: true }),
    prune: () => repo.prune(new Date(clock.now().getTime() - HOUR_MS)),
  };
}
export type DashboardService = ReturnType<typeof createDashboardService>;
