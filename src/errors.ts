// Typed errors thrown by services and repositories; one middleware maps them to HTTP.

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Response headers the answer carries (a refused metered call's quota state, for one). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends AppError {
  constructor(message: string) {
    super(400, message);
  }
}

export class NotFoundError extends AppError {
  constructor(message: string) {
    super(404, message);
  }
}

export class ValidationError extends AppError {
  constructor(readonly issues: ValidationIssue[]) {
    super(422, issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
  }
}

export class UnauthorizedError extends AppError {
  /** RFC 6750 error code for WWW-Authenticate; absent when no credential was sent. */
  constructor(
    message: string,
    readonly bearerError?: 'invalid_token' | 'invalid_request',
  ) {
    super(401, message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string) {
    super(409, message);
  }
}

/** 429: the monthly quota is spent, or the plan's request rate is exceeded; the body names which (`limit`). */
export class QuotaExceededError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    headers: Record<string, string> = {},
    readonly limit: 'monthly' | 'rate' = 'monthly',
  ) {
    super(429, message, { ...headers, 'Retry-After': String(retryAfterSeconds) });
  }
}

export class PaymentRequiredError extends AppError {
  constructor(message: string, headers: Record<string, string> = {}) {
    super(402, message, headers);
  }
}

/** The embedded data dir is held by another process. */
/** The environment's settings do not hold: the message names every problem (no stack trace is useful). */
export class ConfigError extends Error {}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataPath: string,
    what = 'the graph',
  ) {
    super(
      `${what} at ${dataPath} is open in another process (is the server running?). ` +
        'Only one process can open the embedded data dir: stop the server and retry, ' +
        'or point DATA_DIR at another folder.',
    );
    this.name = 'DataDirLockedError';
  }
}

/** A side store failure (PostgreSQL or PGlite), translated at the adapter edge. */
export class StoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreError';
  }
}

/**
 * A graph engine failure, translated at the adapter edge; driver details stay in logs.
 * `transient` (closed, timed out, unreachable) answers 503; anything else is a defect (500).
 */
export class GraphError extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'GraphError';
  }
}

/** The graph engine has no slot free soon enough (more requests than it can serve): shed with 503. */
export class GraphBusyError extends GraphError {
  constructor(message: string) {
    super(message, true);
    this.name = 'GraphBusyError';
  }
}

/** A form without a valid CSRF token. */
export class ForbiddenError extends AppError {
  constructor(message: string) {
    super(403, message);
  }
}

/** Too many attempts from one client or for one address (the dashboard's sign-up and sign-in). */
export class TooManyAttemptsError extends AppError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, message, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/** The deployment cannot do this now (sign-up with no mail server configured). */
export class UnavailableError extends AppError {
  constructor(message: string) {
    super(503, message);
  }
}

/** The search index is being built or brought up to a publish: the search is answered after `Retry-After`, never from a stale index. */
export class SearchIndexBuildingError extends AppError {
  constructor(retryAfterSeconds: number, message = 'the search index is being brought up to date with the graph: retry after the seconds in Retry-After') {
    super(503, message, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/** What was asked for existed and is gone for good (a change-feed cursor past the retention). */
export class GoneError extends AppError {
  constructor(message: string) {
    super(410, message);
  }
}
