// The webhook transport port: how a signed event reaches a receiver. The adapter
// (undici-transport.ts) holds the HTTP client and the address rules; the root picks it.

export interface WebhookResponse {
  status: number;
  /** The start of the response body (a short excerpt, never the whole of it). */
  excerpt: string;
}

/** Why a URL may not receive webhooks. */
export interface Refusal {
  /** A sentence about the URL: "the URL must be an https:// URL". */
  reason: string;
  /** Only the host's lookup failed: it may resolve later. */
  transient: boolean;
}

export interface WebhookTransport {
  /** Why `url` may not receive webhooks (scheme, credentials, an address that is not public, no address), or null. */
  refuse(url: string): Promise<Refusal | null>;
  /**
   * POSTs `body`; rejects with an Error saying what failed (a timeout, the connection), a
   * WebhookRefusedError when the address rules refuse the URL.
   */
  post(url: string, headers: Record<string, string>, body: string): Promise<WebhookResponse>;
}

/** The address rules refuse the URL: sending again cannot succeed while they and the URL stay. */
export class WebhookRefusedError extends Error {}
