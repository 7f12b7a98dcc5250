import { STATUS_CODES, type RequestListener, type Server, createServer } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Errors Node answers before Express sees the request (a header block over the limit, a request
 * it cannot parse) get the same `{"detail": ...}` body as every other error, instead of none.
 */
export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  // Nothing can be written to a socket that is gone, or whose response has started.
  const started = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (err.code === 'ECONNRESET' || !socket.writable || started) {
    socket.destroy();
    return;
  }
  const status =
    err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const detail =
    status === 431
      ? 'request headers are larger than the server accepts'
      : status === 408
        ? 'the request was not received in time'
        : `malformed HTTP request (${err.code ?? 'parse error'})`;
  const body = JSON.stringify({ detail });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/** An HTTP server for the app, listening; resolves once it accepts connections. */
export async function listen(
  app: RequestListener,
  options: { port: number; host?: string; keepAliveTimeoutMs?: number },
): Promise<Server> {
  const server = createServer(app);
  server.on('clientError', answerClientError);
  if (options.keepAliveTimeoutMs !== undefined) {
    server.keepAliveTimeout = options.keepAliveTimeoutMs;
    server.headersTimeout = options.keepAliveTimeoutMs + 1000;
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // A burst of new connections waits in the kernel's accept queue rather than being dropped: a
    // dropped SYN is retried after 1, 3, 7, 15 s (Node's default backlog is 511; Linux caps it).
    server.listen({ port: options.port, host: options.host, backlog: 4096 }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
