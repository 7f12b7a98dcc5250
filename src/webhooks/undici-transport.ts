import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, request } from 'undici';
import type { WebhookResponse, WebhookTransport } from './transport.js';

const EXCERPT_BYTES = 1024;

export interface TransportOptions {
  /** Allow http:// and loopback, private and link-local addresses (tests and development only). */
  allowPrivate: boolean;
  connectTimeoutMs: number;
  /** For the response's headers, and again for its body. */
  responseTimeoutMs: number;
}

/**
 * Public unicast only: no loopback, private, link-local (cloud metadata at 169.254.169.254),
 * carrier-grade NAT (100.64/10, Alibaba's metadata), unique-local (fd00:ec2::254) or reserved
 * address; an IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  return ip.range() === 'unicast';
}

type LookupAll = { address: string; family: number }[];

/** Webhooks over undici, with every address checked where the socket connects (no DNS rebinding). */
export function undiciTransport(options: TransportOptions): WebhookTransport {
  const guardedLookup: net.LookupFunction = (hostname, lookupOptions, callback) => {
    dns.lookup(hostname, { ...lookupOptions, all: true }, (err, addresses: LookupAll) => {
      if (err) return callback(err, '', 4);
      const refused = options.allowPrivate ? undefined : addresses.find((a) => !isPublicAddress(a.address));
      if (refused) return callback(Object.assign(new Error(`${hostname} resolves to ${refused.address}, which is not a public address`), { code: 'EADDRNOTPUBLIC' }), '', 4);
      if (lookupOptions.all) return (callback as unknown as (e: null, a: LookupAll) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
  const agent = new Agent({
    connect: { timeout: options.connectTimeoutMs, lookup: guardedLookup },
    headersTimeout: options.responseTimeoutMs,
    bodyTimeout: options.responseTimeoutMs,
    keepAliveTimeout: 10_000,
  });

  /** What is wrong with the URL itself, before any lookup. */
  function shape(url: string): { problem: string } | { host: string } {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return { problem: 'is not a URL' };
    }
    const schemes = options.allowPrivate ? ['https:', 'http:'] : ['https:'];
    if (!schemes.includes(parsed.protocol)) return { problem: options.allowPrivate ? 'must be an http:// or https:// URL' : 'must be an https:// URL' };
    if (parsed.username || parsed.password) return { problem: 'must not carry credentials: verify deliveries by their signature' };
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    // An address in the URL never goes through the lookup, so it is judged here.
    if (!options.allowPrivate && net.isIP(host) && !isPublicAddress(host)) return { problem: `points at ${host}, which is not a public address` };
    return { host };
  }

  return {
    async refuse(url) {
      const s = shape(url);
      if ('problem' in s) return s.problem;
      if (options.allowPrivate || net.isIP(s.host)) return null;
      try {
        const addresses = await dns.promises.lookup(s.host, { all: true });
        const refused = addresses.find((a) => !isPublicAddress(a.address));
        return refused ? `resolves to ${refused.address}, which is not a public address` : null;
      } catch {
        return `its host ${s.host} does not resolve`;
      }
    },
    async post(url, headers, body): Promise<WebhookResponse> {
      const s = shape(url);
      if ('problem' in s) throw new Error(`the URL ${s.problem}`);
      const res = await request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'licensee-verification-service-webhooks/1', ...headers },
        body,
        dispatcher: agent,
        // Redirects are not followed: a 3xx is an answer like any other, and not a success.
        signal: AbortSignal.timeout(options.connectTimeoutMs + 2 * options.responseTimeoutMs),
      });
      let excerpt = Buffer.alloc(0);
      try {
        for await (const chunk of res.body) {
          excerpt = Buffer.concat([excerpt, chunk as Buffer]);
          if (excerpt.length >= EXCERPT_BYTES) break;
        }
      } finally {
        res.body.destroy();
      }
      return { status: res.statusCode, excerpt: excerpt.subarray(0, EXCERPT_BYTES).toString('utf8') };
    },
  };
}
