import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { WebhookRefusedError } from '../../src/modules/webhooks/transport.js';
import { isPublicAddress, undiciTransport } from '../../src/modules/webhooks/undici-transport.js';

describe('the webhook transport', () => {
  it('when an address is judged then only public unicast passes, IPv4-mapped IPv6 judged as its IPv4', () => {
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111']) expect(isPublicAddress(a), a).toBe(true);
    for (const a of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.100.100.200', '0.0.0.0', '255.255.255.255', '224.0.0.1', '::1', '::', 'fe80::1', 'fd00:ec2::254', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'not-an-ip']) {
      expect(isPublicAddress(a), a).toBe(false);
    }
  });

  it('when a URL is refused then the reason is a sentence about the URL, and sending to it rejects as refused; a host that does not resolve is not refused for good', async () => {
    const strict = undiciTransport({ allowPrivate: false, connectTimeoutMs: 2000, responseTimeoutMs: 2000 });
    // .invalid never resolves (RFC 2606).
    expect(await strict.refuse('https://hooks.example.invalid/x')).toEqual({ reason: "the URL's host hooks.example.invalid does not resolve", transient: true });
    expect(await strict.refuse('https://localhost/x')).toEqual({ reason: expect.stringMatching(/^the URL's host localhost resolves to (127\.0\.0\.1|::1), which is not a public address$/), transient: false });
    expect(await strict.refuse('http://hooks.example.invalid/x')).toEqual({ reason: 'the URL must be an https:// URL', transient: false });
    expect(await strict.refuse('not a url')).toEqual({ reason: 'the URL does not parse', transient: false });
    for (const url of ['http://hooks.example.invalid/x', 'https://10.0.0.1/x', 'https://localhost:9/x']) {
      await expect(strict.post(url, {}, '{}'), url).rejects.toBeInstanceOf(WebhookRefusedError);
    }
    const unresolved = await strict.post('https://hooks.example.invalid/x', {}, '{}').catch((err: Error) => err);
    expect(unresolved).toBeInstanceOf(Error);
    expect(unresolved).not.toBeInstanceOf(WebhookRefusedError);
  });

  it('when a delivery goes to a name that resolves to loopback then the connection is refused where it is made, and nothing reaches the listener', async () => {
    let reached = 0;
    const server = http.createServer((_req, res) => {
      reached++;
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const strict = undiciTransport({ allowPrivate: false, connectTimeoutMs: 2000, responseTimeoutMs: 2000 });
      // The URL passed its check once (say the name pointed elsewhere then): the delivery checks again.
      await expect(strict.post(`https://localhost:${port}/hook`, {}, '{}')).rejects.toThrow(/not a public address/);
      await expect(strict.post(`https://127.0.0.1:${port}/hook`, {}, '{}')).rejects.toThrow(/not a public address/);
      await expect(strict.post(`http://localhost:${port}/hook`, {}, '{}')).rejects.toThrow(/https/);
      expect(reached).toBe(0);
      const open = undiciTransport({ allowPrivate: true, connectTimeoutMs: 2000, responseTimeoutMs: 2000 });
      expect(await open.post(`http://localhost:${port}/hook`, {}, '{}')).toEqual({ status: 200, excerpt: 'ok' });
      expect(reached).toBe(1);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
