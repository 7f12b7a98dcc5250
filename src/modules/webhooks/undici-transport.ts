import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Agent } from 'undici';
import { WebhookRefusedError, type WebhookResponse, type WebhookTransport } from './transport.js';

const EXCERPT_BYTES = 1024;

export interface TransportOptions {
  /** Allow http:// and loopback, private and link-local addresses (tests and development only). */
  allowPrivate: boolean;
  connectTimeoutMs: number;
  /** For the response's headers, and again for its body. */
  responseTimeoutMs: number;
  /** Every address of a host name; dns.lookup unless given (a test on a machine without DNS gives names their addresses). */
  lookup?: (hostname: string, options: dns.LookupAllOptions) => Promise<LookupAll>;
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

const notPublic = (host: string, address: string) => `the URL's host ${host} resolves to ${address}, which is not a public address`;

/** Webhooks over undici, with every address checked where the socket connects (no DNS rebinding). */
export function undiciTransport(options: TransportOptions): WebhookTransport {
  const lookup = options.lookup ?? ((hostname, o) => dns.promises.lookup(hostname, o));
  const guardedLookup: net.LookupFunction = (hostname, lookupOptions, callback) => {
    lookup(hostname, { ...lookupOptions, all: true }).then((addresses) => {
      const refused = options.allowPrivate ? undefined : addresses.find((a) => !isPublicAddress(a.address));
      if (refused) return callback(Object.assign(new WebhookRefusedError(notPublic(hostname, refused.address)), { code: 'EADDRNOTPUBLIC' }), '', 4);
      if (lookupOptions.all) return (callback as unknown as (e: null, a: LookupAll) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    }, (err) => callback(err, '', 4));
  };
  // undici (sixty modules) loads with the first delivery, not with every start.
  let client: Promise<{ agent: Agent; request: typeof import('undici').request }> | undefined;
  const undici = () =>
    (client ??= import('undici').then(({ Agent, request }) => ({
      request,
      agent: new Agent({
        connect: { timeout: options.connectTimeoutMs, lookup: guardedLookup },
        headersTimeout: options.responseTimeoutMs,
        bodyTimeout: options.responseTimeoutMs,
        keepAliveTimeout: 10_000,
      }),
    })));

  /** What is wrong with the URL itself, before any lookup (each problem a sentence about the URL). */
  function shape(url: string): { problem: string } | { host: string } {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return { problem: 'the URL does not parse' };
    }
    const schemes = options.allowPrivate ? ['https:', 'http:'] : ['https:'];
    if (!schemes.includes(parsed.protocol)) return { problem: options.allowPrivate ? 'the URL must be an http:// or https:// URL' : 'the URL must be an https:// URL' };
    if (parsed.username || parsed.password) return { problem: 'the URL must not carry credentials: verify deliveries by their signature' };
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    // An address in the URL never goes through the lookup, so it is judged here.
    if (!options.allowPrivate && net.isIP(host) && !isPublicAddress(host)) return { problem: `the URL points at ${host}, which is not a public address` };
    return { host };
  }

  return {
    async refuse(url) {
      const s = shape(url);
      if ('problem' in s) return { reason: s.problem, transient: false };
      if (options.allowPrivate || net.isIP(s.host)) return null;
      let addresses: LookupAll;
      try {
        addresses = await lookup(s.host, { all: true });
      } catch {
        return { reason: `the URL's host ${s.host} does not resolve`, transient: true };
      }
      const refused = addresses.find((a) => !isPublicAddress(a.address));
      return refused ? { reason: notPublic(s.host, refused.address), transient: false } : null;
    },
    async post(url, headers, body): Promise<WebhookResponse> {
      const s = shape(url);
      if ('problem' in s) throw new WebhookRefusedError(s.problem);
      const { agent, request } = await undici();
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
