import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * A webhook receiver on loopback: records every request, and answers each path as told
 * (a status by the number of requests that path has had, from 1), 200 by default.
 */
export async function webhookReceiver() {
  const received: Received[] = [];
  const answers = new Map<string, (n: number) => number | 'hang'>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
      const n = received.filter((r) => r.path === path).length;
      const status = answers.get(path)?.(n) ?? 200;
      if (status === 'hang') return;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(`answer ${status} to request ${n} ${'x'.repeat(3000)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    at: (path: string) => received.filter((r) => r.path === path),
    answer(path: string, fn: (n: number) => number | 'hang') {
      answers.set(path, fn);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
