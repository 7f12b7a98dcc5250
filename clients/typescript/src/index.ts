// The typed client of the Licensee Verification Service: the generated operations (./generated,
// `npm run client:generate` in the service's repo) and what a caller expects around them.
import { Api, type AffiliateItem, type BatchVerifyItem, type ChangeEvent, type ChangeFeed, type Licensee, type VerificationJob, type VerificationJobResponse, type VerificationJobResult } from './generated/api.js';

export * from './generated/api.js';
export { OPENAPI_SHA256, OPENAPI_VERSION } from './generated/document.js';

type Operations = Api<string>['api'];
export type SearchQuery = Parameters<Operations['searchLicensees']>[0];
export type AffiliatesQuery = NonNullable<Parameters<Operations['listAffiliates']>[2]>;
export type ChangesQuery = NonNullable<Parameters<Operations['listLicenseeChanges']>[0]>;
export type JobResultsQuery = NonNullable<Parameters<Operations['listVerificationJobResults']>[1]>;

export interface LvsClientOptions {
  /** Where the service answers, e.g. https://lvs.example.com (no trailing /api/v1). */
  baseUrl: string;
  /** An API key, sent as `Authorization: Bearer`. */
  apiKey?: string;
  /** How many times a 429 or 503 is sent again after its Retry-After (default 3). */
  maxRetries?: number;
  /** A Retry-After longer than this is not waited for: the 429 is thrown (default 60 s; a spent monthly quota asks for days). */
  maxRetryDelayMs?: number;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

/** One item of a 422's `detail`. */
export interface ValidationProblem {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** A response that was not a success: its status, the problem body and the request's X-Request-ID. */
export class LvsApiError extends Error {
  readonly name = 'LvsApiError';
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly requestId: string | null,
    readonly retryAfterSeconds: number | null,
    readonly method: string,
    readonly url: string,
  ) {
    super(`${method} ${new URL(url).pathname} answered ${status}: ${describe(body)}${requestId ? ` (X-Request-ID ${requestId})` : ''}`);
  }
  /** The body's `detail`: a sentence, or the list of what a 422 found wrong. */
  get detail(): string | ValidationProblem[] | undefined {
    return (this.body as { detail?: string | ValidationProblem[] } | null)?.detail;
  }
}

function describe(body: unknown): string {
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) return detail.map((d: ValidationProblem) => `${d.loc.join('.')}: ${d.msg}`).join('; ');
  return typeof body === 'string' && body ? body.slice(0, 200) : 'no detail';
}

/** Seconds to wait from a Retry-After (seconds or an HTTP date), or null without one. */
function retryAfter(res: Response): number | null {
  const value = res.headers.get('retry-after');
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, (at - Date.now()) / 1000);
}

const sleep = (ms: number, signal?: AbortSignal | null) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

/**
 * A fetch that sends a 429 or 503 again after its Retry-After (a refused call was not served, so
 * any method may be), and throws LvsApiError for any other answer that is not a success or a 304.
 */
function serviceFetch(base: typeof fetch, maxRetries: number, maxDelayMs: number): typeof fetch {
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = init?.method ?? 'GET';
    for (let attempt = 0; ; attempt++) {
      const res = await base(input, init);
      if (res.ok || res.status === 304) return res;
      const wait = retryAfter(res);
      const waitMs = (wait ?? 2 ** attempt) * 1000;
      if ((res.status === 429 || res.status === 503) && attempt < maxRetries && waitMs <= maxDelayMs) {
        await res.body?.cancel();
        await sleep(waitMs, init?.signal);
        continue;
      }
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Not JSON: the text is the body.
      }
      throw new LvsApiError(res.status, body, res.headers.get('x-request-id'), wait, method, url);
    }
  };
}

export class LvsClient {
  /** Every `/api/v1` operation, named by its operationId. */
  readonly api: Operations;
  readonly health: Api<string>['health'];
  readonly wellKnown: Api<string>['wellKnown'];
  private readonly http: Api<string>;
  private readonly fetch: typeof fetch;
  private readonly baseUrl: string;

  constructor(private readonly options: LvsClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetch = serviceFetch(options.fetch ?? globalThis.fetch, options.maxRetries ?? 3, options.maxRetryDelayMs ?? 60_000);
    this.http = new Api<string>({
      baseUrl: this.baseUrl,
      customFetch: this.fetch,
      securityWorker: (key) => (key ? { headers: { Authorization: `Bearer ${key}` } } : {}),
    });
    if (options.apiKey) this.http.setSecurityData(options.apiKey);
    this.api = this.http.api;
    this.health = this.http.health;
    this.wellKnown = this.http.wellKnown;
  }

  /** Every licensee a search matches, page after page, in the documented order. */
  async *search(query: SearchQuery): AsyncGenerator<Licensee> {
    const perPage = query.per_page ?? 100;
    for (let page = query.page ?? 1; ; page++) {
      const { data } = await this.api.searchLicensees({ ...query, page, per_page: perPage });
      yield* data.data;
      if (data.data.length < perPage || page * perPage >= data.meta.total) return;
    }
  }

  /** Every affiliate a licence supervises, page after page. */
  async *affiliates(state: string, licenseNumber: string, query: AffiliatesQuery = {}): AsyncGenerator<AffiliateItem> {
    const perPage = query.per_page ?? 100;
    for (let page = query.page ?? 1; ; page++) {
      const { data } = await this.api.listAffiliates(state as never, licenseNumber, { ...query, page, per_page: perPage });
      yield* data.data;
      if (data.data.length < perPage || page * perPage >= data.meta.total) return;
    }
  }

  /**
   * The change feed's pages from `cursor` (or `since` on a first call) until none is waiting; keep
   * the last page's `next_cursor` to go on from there later.
   */
  async *changePages(query: ChangesQuery = {}): AsyncGenerator<ChangeFeed> {
    let next: ChangesQuery = query;
    for (;;) {
      const { data } = await this.api.listLicenseeChanges(next);
      yield data;
      if (!data.has_more || !data.next_cursor) return;
      next = { ...query, since: undefined, cursor: data.next_cursor };
    }
  }

  /** The change feed's events, as changePages. */
  async *changes(query: ChangesQuery = {}): AsyncGenerator<ChangeEvent> {
    for await (const page of this.changePages(query)) yield* page.data;
  }

  /**
   * Uploads a roster as a verification job: CSV text (a header naming `state` and `license_number`)
   * or batch items.
   */
  async submitJob(roster: string | BatchVerifyItem[], options: { label?: string; watch?: boolean } = {}): Promise<VerificationJob> {
    if (typeof roster !== 'string') return (await this.api.createVerificationJob({ rows: roster }, options)).data.data;
    const url = new URL(`${this.baseUrl}/api/v1/verification-jobs`);
    if (options.label !== undefined) url.searchParams.set('label', options.label);
    if (options.watch !== undefined) url.searchParams.set('watch', String(options.watch));
    const res = await this.fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'text/csv; charset=utf-8', ...(this.options.apiKey ? { Authorization: `Bearer ${this.options.apiKey}` } : {}) },
      body: roster,
    });
    return ((await res.json()) as VerificationJobResponse).data;
  }

  /** Polls a job until it stops (completed, failed or cancelled), telling `onProgress` of each poll. */
  async waitForJob(id: string, options: { onProgress?: (job: VerificationJob) => void; intervalMs?: number; signal?: AbortSignal } = {}): Promise<VerificationJob> {
    for (;;) {
      const job = (await this.api.getVerificationJob(id, { signal: options.signal })).data.data;
      options.onProgress?.(job);
      if (job.status === 'completed' || job.status === 'failed' || job.status === 'cancelled') return job;
      await sleep(options.intervalMs ?? 1000, options.signal);
    }
  }

  /** A job's result rows, in order, as the pages come (also while it runs: the rows done so far). */
  async *jobResults(id: string, query: JobResultsQuery = {}): AsyncGenerator<VerificationJobResult> {
    let cursor = query.cursor;
    for (;;) {
      const { data } = await this.api.listVerificationJobResults(id, { ...query, cursor, per_page: query.per_page ?? 100 });
      yield* data.data;
      if (!data.meta.next_cursor) return;
      cursor = data.meta.next_cursor;
    }
  }
}
