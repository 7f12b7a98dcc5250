// The webhook transport port: how a signed event reaches a receiver. The adapter
// (undici-transport.ts) holds the HTTP client and the address rules; the root picks it.

export interface WebhookResponse {
  status: number;
  /** The start of the response body (a short excerpt, never the whole of it). */
  excerpt: string;
}

export interface WebhookTransport {
  /** Why `url` may not receive webhooks (scheme, credentials, an address that is not public), or null. */
  refuse(url: string): Promise<string | null>;
  /** POSTs `body`; rejects with an Error saying what failed (a refused address, a timeout, the connection). */
  post(url: string, headers: Record<string, string>, body: string): Promise<WebhookResponse>;
}
