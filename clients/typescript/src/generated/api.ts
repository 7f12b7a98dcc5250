/* eslint-disable */
/* tslint:disable */
// @ts-nocheck
/*
 * ---------------------------------------------------------------
 * ## THIS FILE WAS GENERATED VIA SWAGGER-TYPESCRIPT-API        ##
 * ##                                                           ##
 * ## AUTHOR: acacode                                           ##
 * ## SOURCE: https://github.com/acacode/swagger-typescript-api ##
 * ---------------------------------------------------------------
 */

/** Kind of supervision; the edge points from the supervisor to the supervised licence (filters take it in any letter case) */
export type RelationshipType =
  | "sponsoring_broker"
  | "employing_broker"
  | "designated_broker"
  | "designated_officer"
  | "main_office"
  | "supervising_inspector"
  | "supervising_broker";

/** Role of the supervised licence in a relationship (filters take it in any letter case) */
export type AffiliateRole =
  | "salesperson"
  | "broker_associate"
  | "brokerage"
  | "branch"
  | "officer"
  | "apprentice"
  | "inspector";

/** Normalized licence type, in any letter case */
export type LicenseTypeFilter =
  | "broker"
  | "salesperson"
  | "broker_associate"
  | "brokerage"
  | "branch_office"
  | "officer"
  | "professional_inspector"
  | "real_estate_inspector"
  | "apprentice_inspector"
  | "instructor"
  | "other";

/** Normalized status filter, in any letter case */
export type StatusFilter = "active" | "inactive" | "expired" | "suspended";

/** Why the verdict is what it is (each reason says whether it makes a found licence consider or is a note): not_covered (note): A real jurisdiction whose licences this service does not hold: a miss says nothing. partial_source (note): The source publishes only some licences or fields (active licences only, no status or dates): a miss is not proof that no licence exists. expired (consider): The status is an expired or delinquent one, or the published expiration date has passed. inactive (consider): The status is inactive (including surrendered, relinquished, cancelled, retired, deceased or deleted). suspended (consider): The status is a suspension. revoked (consider): The licence was revoked. probation (consider): The licence is on probation (active or not). no_current_supervisor (consider): An active licence of a type that must practise under a broker or supervisor has none in force, where the source publishes supervision in full. name_mismatch (consider): The name sent is not the licence holder's. name_close (note): The name sent is the holder's written differently (nickname, initial, missing middle name, a typing slip). source_stale (consider): The state's last successful refresh is older than twice its stated refresh frequency. */
export type VerdictReason =
  | "not_covered"
  | "partial_source"
  | "expired"
  | "inactive"
  | "suspended"
  | "revoked"
  | "probation"
  | "no_current_supervisor"
  | "name_mismatch"
  | "name_close"
  | "source_stale";

/** clear: on file with nothing to look at; consider: on file, and a reason needs a person's look; not_found: no licence with that state and number on file. The rules are in docs/verdicts.md. */
export type Verdict = "clear" | "consider" | "not_found";

/** How the jurisdiction covers supervision: verified_graph (published links, complete), verified_graph_partial (published links, some kinds missing), source_context_only (the source names an employer or brokerage but the service does not expose it as a verified supervision graph), source_not_published, not_yet_ingested. */
export type RelationshipCoverage =
  | "verified_graph"
  | "verified_graph_partial"
  | "source_context_only"
  | "source_not_published"
  | "not_yet_ingested";

export interface WebhookPayload {
  type:
    | "license_added"
    | "status_changed"
    | "expiration_changed"
    | "name_changed"
    | "left_source"
    | "returned_to_source"
    | "supervision_started"
    | "supervision_ended"
    | "supervision_transferred"
    | "roster_moved"
    | "state_loaded"
    | "supervisor_status_changed"
    | "supervision_gap_opened"
    | "designated_broker_changed"
    | "license_expiring"
    | "renewed_after_lapse";
  /**
   * When the change was detected
   * @format date-time
   */
  timestamp: string;
  data: ChangeEvent;
}

export interface ChangeEvent {
  /**
   * Unique, and sorts in feed order
   * @example "chg_000000000042"
   */
  id: string;
  /** Events carry the current names. In filters, `licence_added`, the old name of `license_added`, is accepted until 2027-06-30. */
  type:
    | "license_added"
    | "status_changed"
    | "expiration_changed"
    | "name_changed"
    | "left_source"
    | "returned_to_source"
    | "supervision_started"
    | "supervision_ended"
    | "supervision_transferred"
    | "roster_moved"
    | "state_loaded"
    | "supervisor_status_changed"
    | "supervision_gap_opened"
    | "designated_broker_changed"
    | "license_expiring"
    | "renewed_after_lapse";
  state: string;
  /** Null for a state summary (`state_loaded`) */
  license_number: string | null;
  license_credential_id: string | null;
  /** The values before the change (the fields the type is about) */
  old: Record<string, any> | null;
  /** The values after the change; for `state_loaded`, what the first load brought */
  new: Record<string, any> | null;
  /** The relationship a `supervision_started` or `supervision_ended` event is about; on `supervision_transferred`, the one that started */
  relationship: ChangedRelationship;
  /** On `supervision_transferred`: the relationships that ended and started, and their events */
  transfer: Transfer;
  /** On `roster_moved` (most of a supervisor's roster moved to another on one date, told once instead of a transfer per affiliate), and on the supervision events of the affiliates it moved */
  bulk_move: BulkMove;
  /** On an event derived for your account alone from your watchlist (`supervisor_status_changed`, `supervision_gap_opened`, `designated_broker_changed`): what it is about and why; null on public events */
  alert: Alert;
  /**
   * The source snapshot the change was seen in
   * @format date
   */
  snapshot_date: string;
  /** @format date-time */
  detected_at: string;
  source: string;
}

/** The relationship a `supervision_started` or `supervision_ended` event is about; on `supervision_transferred`, the one that started */
export interface ChangedRelationship {
  supervisor_license_credential_id: string;
  supervisor_license_number: string | null;
  affiliate_license_credential_id: string;
  relationship_type: string;
  affiliate_role: string | null;
  effective_from: string;
  effective_to: string | null;
}

/** On `supervision_transferred`: the relationships that ended and started, and their events */
export interface Transfer {
  /** The relationship that ended */
  from: ChangedRelationship;
  /** The relationship that started */
  to: ChangedRelationship;
  /** Days from the end of `from` to the start of `to`, by the source's dates; negative when they overlap */
  gap_days: number;
  /** The `supervision_ended` event of `from`; null when an earlier snapshot ended it */
  ended_event_id: string | null;
  /** The `supervision_started` event of `to` */
  started_event_id: string | null;
}

/** On `roster_moved` (most of a supervisor's roster moved to another on one date, told once instead of a transfer per affiliate), and on the supervision events of the affiliates it moved */
export interface BulkMove {
  from_supervisor_license_credential_id: string;
  from_supervisor_license_number: string | null;
  to_supervisor_license_credential_id: string;
  to_supervisor_license_number: string | null;
  relationship_type: string;
  /** @format date */
  effective_from: string;
  /** Affiliates moved */
  moved: number;
  /** Open relationships of this type the first supervisor had before the snapshot */
  roster_before: number;
  /** On a moved affiliate's supervision events, the `roster_moved` event; null on that event */
  event_id: string | null;
}

/** On an event derived for your account alone from your watchlist (`supervisor_status_changed`, `supervision_gap_opened`, `designated_broker_changed`): what it is about and why; null on public events */
export interface Alert {
  /** What the event is about, unique in your feed: an event derived again is never written twice */
  key: string;
  /** The relationships in force from your watched licence up to the supervisor the cause is about, nearest first; empty when the cause is on the watched licence itself */
  path: PathStep[];
  /** The public events it was derived from */
  cause_event_ids: string[];
}

export interface PathStep {
  affiliate_license_credential_id: string;
  supervisor_license_credential_id: string;
  supervisor_license_number: string;
  supervisor_full_name: string | null;
  relationship_type: string;
  /** @format date */
  effective_from: string;
}

export interface VerificationJobEvent {
  type: "verification_job.completed" | "verification_job.failed";
  /**
   * When the job stopped
   * @format date-time
   */
  timestamp: string;
  data: VerificationJob;
}

export interface VerificationJob {
  /** @format uuid */
  id: string;
  status: "queued" | "running" | "completed" | "failed" | "cancelled";
  label: string | null;
  format: "csv" | "json";
  watch: boolean;
  rows_total: number;
  rows_done: number;
  /** Rows done, by verdict */
  counts: {
    clear: number;
    consider: number;
    not_found: number;
  };
  /** Metered units charged so far: one per 100 rows started (the last chunk may hold fewer) */
  units_charged: number;
  /** With `watch`: what the job put on the watchlist, once it stopped; null before */
  watchlist: {
    added: number;
    already_watched: number;
    /** Found rows left off because the plan's watchlist limit was reached (results with `watchlist: "over_limit"`) */
    over_limit: number;
    limit: number;
  } | null;
  /** Why a job failed or stopped: quota_exhausted (the monthly quota ran out: the rows done are kept), plan_lacks_batch, internal_error, cancelled */
  error: {
    code:
      | "quota_exhausted"
      | "plan_lacks_batch"
      | "internal_error"
      | "cancelled";
    message: string;
  } | null;
  /** @format date-time */
  created_at: string;
  /** @format date-time */
  started_at: string | null;
  /** @format date-time */
  finished_at: string | null;
  /**
   * When the job and its results are deleted; null while it runs
   * @format date-time
   */
  expires_at: string | null;
  links: {
    self: string;
    results: string;
    results_csv: string;
  };
}

export interface Health {
  status: "ok";
  search_index?: SearchIndexHealth;
  [key: string]: any;
}

export interface SearchIndexHealth {
  /** `building` until the first index is built: searches answer 503 with `Retry-After` meanwhile */
  status: "ready" | "building";
  /** The index is being brought up to a publish or an import: searches of the states it reads again may answer 503 with `Retry-After` */
  catching_up: boolean;
  /** The graph generation its rows show (Neo4j) */
  generation?: number;
  rows: number;
  /** Memory its arrays and texts hold */
  bytes: number;
  /** A file kept at the last clean stop, an export of the graph, or the rows an offline load left */
  built_from?: "snapshot" | "export" | "load";
  /** The last build: the states it read again (only those whose rows moved, on Neo4j), their rows, and how long it took */
  last_build?: {
    states: number;
    rows: number;
    /** Present when the build patched the states: the rows it read again from the graph, those the publishes since the last build changed (Neo4j) */
    changed?: number;
    /** A patch: whether its changed rows came indexed by the refresh that wrote them (one publish behind, Neo4j), rather than indexed here */
    prebuilt?: boolean;
    /** Until the index served the rows: for a patch, once its changed rows were indexed beside the rest (before `merge_ms`) */
    ms: number;
    /** Of `ms`, the time until its rows were read from the graph (the export, or the changed rows); the rest is the build */
    read_ms?: number;
    /** Of `ms`, the time the index took to build from those rows (for a patch, the changed rows alone); the rest is handing it over */
    index_ms?: number;
    /** A patch: the time after `ms` its rows took to be merged into the index (searches were served meanwhile) */
    merge_ms?: number;
  };
}

/** Invalid query, path or body (HTTP 422). */
export interface HTTPValidationError {
  detail?: ValidationErrorItem[];
}

export interface ValidationErrorItem {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: any;
  ctx?: Record<string, any>;
}

export interface Readiness {
  status: "ready" | "not_ready";
  checks: Record<
    string,
    {
      status: "ok" | "failing";
      latency_ms: number;
      error?: string;
    }
  >;
  [key: string]: any;
}

/** Error with a human-readable detail. */
export interface ErrorResponse {
  detail: string;
}

/** A call refused by a limit (HTTP 429), naming which. */
export interface RateLimitedResponse {
  detail: string;
  /** `rate`: the plan's request rate (retry in seconds); `monthly`: the monthly quota (retry at its reset) */
  limit: "rate" | "monthly";
}

export type ReadinessFailure = Readiness & {
  detail: string;
  [key: string]: any;
};

export interface Coverage {
  states: CoverageStateRow[];
}

export interface CoverageStateRow {
  state: string;
  /** Jurisdiction status: active, paused, planned */
  status: string;
  /** daily, nightly, weekly, monthly, quarterly, irregular */
  refresh_frequency?: string | null;
  record_count?: number | null;
  active_record_count?: number | null;
  /**
   * Last refresh of the data
   * @format date-time
   */
  last_updated?: string | null;
  /** How the jurisdiction covers supervision: verified_graph (published links, complete), verified_graph_partial (published links, some kinds missing), source_context_only (the source names an employer or brokerage but the service does not expose it as a verified supervision graph), source_not_published, not_yet_ingested. */
  relationship_coverage: RelationshipCoverage;
  relationship_coverage_notes?: string | null;
}

/** An active jurisdiction */
export interface StateItem {
  code: string;
  name: string | null;
  status: string;
  /** How the jurisdiction covers supervision: verified_graph (published links, complete), verified_graph_partial (published links, some kinds missing), source_context_only (the source names an employer or brokerage but the service does not expose it as a verified supervision graph), source_not_published, not_yet_ingested. */
  relationship_coverage: RelationshipCoverage;
  record_count: number | null;
  [key: string]: any;
}

/** The configured upstream source of one state */
export interface SourceItem {
  id: string | null;
  state: string;
  name: string | null;
  url: string | null;
  format: string | null;
  refresh_frequency: string | null;
  /** How the jurisdiction covers supervision: verified_graph (published links, complete), verified_graph_partial (published links, some kinds missing), source_context_only (the source names an employer or brokerage but the service does not expose it as a verified supervision graph), source_not_published, not_yet_ingested. */
  relationship_coverage: RelationshipCoverage;
  relationship_coverage_notes: string | null;
  /** @format date-time */
  last_import_at: string | null;
  last_import_rows: number | null;
  /**
   * Snapshot of the last refresh run
   * @format date
   */
  last_snapshot_date: string | null;
  /** Summary of the last refresh run: counts inserted, updated, unchanged, left, edges opened and closed, rejected by reason */
  last_run: Record<string, any> | null;
  /** The refresh of this state running now, if any: until it lands, every read answers from the previous snapshot */
  refresh_in_progress: {
    run_id: string;
    /** @format date-time */
    started_at: string;
    /**
     * Its last progress report (every 5 s while it runs)
     * @format date-time
     */
    last_heard_at: string;
    /** waiting: for another state's refresh on an engine that runs one at a time (Neo4j); reading: the files, writing credentials as it goes; relationships: diffing and writing links; landing: read models, counts and the commit (on Neo4j, the publish) */
    phase: "waiting" | "reading" | "relationships" | "landing";
    rows_read: number;
    rows_per_second: number;
    /**
     * Share of the files' bytes read
     * @min 0
     * @max 100
     */
    percent_read: number;
  };
  [key: string]: any;
}

export interface SourcesCoverage {
  /** @format date-time */
  generated_at: string;
  totals: {
    jurisdictions: number;
    record_count: number;
    active_record_count: number;
    by_relationship_coverage: Record<string, number>;
  };
  states: (CoverageStateRow & {
    source: SourceItem | null;
  })[];
  [key: string]: any;
}

export interface ReceiptKeys {
  keys: ReceiptKey[];
}

export interface ReceiptKey {
  kty: "OKP";
  crv: "Ed25519";
  x: string;
  /** The key's RFC 7638 thumbprint (SHA-256), as receipts name it in their header */
  kid: string;
  alg: "EdDSA";
  use: "sig";
  /** Present once the key is marked compromised (as OpenID Federation 1.0 writes it): do not trust a receipt it signed; ask for the receipt again */
  revoked?: {
    /** When it was marked compromised (seconds since the epoch) */
    revoked_at: number;
    reason: "keyCompromise";
  };
}

export interface Account {
  /** @format uuid */
  id: string;
  email: string;
  plan: "free" | "starter" | "growth" | "enterprise";
  /** The plan in force now: a running trial, else `plan` */
  effective_plan: "free" | "starter" | "growth" | "enterprise";
  trial: {
    plan: "free" | "starter" | "growth" | "enterprise";
    ends_at: string | null;
    active: boolean;
  };
  monthly_quota: number;
  batch_enabled: boolean;
  /** @format date-time */
  created_at: string;
  [key: string]: any;
}

export interface AccountUsage {
  /**
   * Calendar month, UTC (YYYY-MM)
   * @example "2026-11"
   */
  period: string;
  /** @format date-time */
  period_start: string;
  /** @format date-time */
  resets_at: string;
  plan: "free" | "starter" | "growth" | "enterprise";
  quota: number;
  used: number;
  remaining: number;
  /** Metered calls this month by operationId */
  by_endpoint: Record<string, number>;
  /**
   * Metered calls this month by day (UTC, YYYY-MM-DD), in date order; days without calls are left out
   * @example {"2026-11-24":120,"2026-11-25":37}
   */
  by_day: Record<string, number>;
  [key: string]: any;
}

export interface ApiKey {
  /** @format uuid */
  id: string;
  label: string | null;
  /** SHA-256 of the key (`sha256:<hex>`); the raw key is never stored */
  key_hash: string;
  prefix: string;
  last_four: string;
  /** @format date-time */
  created_at: string;
  /**
   * Updated within a second of use
   * @format date-time
   */
  last_used_at: string | null;
  [key: string]: any;
}

export type CreatedApiKey = ApiKey & {
  /** The raw key: shown only in this response. Send it as `Authorization: Bearer <key>`. */
  key: string;
  [key: string]: any;
};

/** @example {"label":"nightly compliance job"} */
export interface CreateApiKeyRequest {
  /**
   * A name for the key: at most 100 characters, no control characters
   * @maxLength 100
   * @pattern ^[^\u0000-\u001f\u007f]*$
   */
  label?: string | null;
}

export interface DeletedApiKey {
  id: string;
  revoked: true;
  revoked_at: string | null;
  [key: string]: any;
}

export interface FollowedState {
  state: string;
  following: true;
  /** States the account follows now */
  states: number;
  /** The plan's limit */
  limit: number;
}

export interface FollowedStates {
  data: {
    state: string;
    /** @format date-time */
    added_at: string;
  }[];
}

export interface UnfollowedState {
  state: string;
  following: false;
}

export interface ExpiryAlerts {
  /** Largest first */
  days: number[];
  /** The service's days (90, 60, 30, 7, 0), not chosen by the account */
  default: boolean;
}

/** @example {"days":[60,14,0]} */
export interface ExpiryAlertsRequest {
  /**
   * Days before a watched licence's expiration date to be told (`license_expiring`); 0 is the day itself
   * @maxItems 10
   * @minItems 1
   */
  days: number[];
}

export interface WatchResult {
  added: number;
  already_watched: number;
  /** Licences the account watches now */
  watched: number;
  /** The plan's limit */
  limit: number;
}

/** @example {"items":[{"state":"TX","license_number":"406526-SA"},{"state":"TX","license_number":"9089631-B"}]} */
export interface WatchRequest {
  /**
   * @maxItems 1000
   * @minItems 1
   */
  items: {
    /**
     * Two-letter code of a U.S. jurisdiction: AL, AK, AZ, AR, CA, CO, CT, DE, DC, FL, GA, HI, ID, IL, IN, IA, KS, KY, LA, ME, MD, MA, MI, MN, MS, MO, MT, NE, NV, NH, NJ, NM, NY, NC, ND, OH, OK, OR, PA, RI, SC, SD, TN, TX, UT, VT, VA, WA, WV, WI, WY, PR, VI, GU, AS, MP. Lower case is accepted too (tx is TX); answers give it in upper case
     * @example "TX"
     */
    state:
      | "AL"
      | "AK"
      | "AZ"
      | "AR"
      | "CA"
      | "CO"
      | "CT"
      | "DE"
      | "DC"
      | "FL"
      | "GA"
      | "HI"
      | "ID"
      | "IL"
      | "IN"
      | "IA"
      | "KS"
      | "KY"
      | "LA"
      | "ME"
      | "MD"
      | "MA"
      | "MI"
      | "MN"
      | "MS"
      | "MO"
      | "MT"
      | "NE"
      | "NV"
      | "NH"
      | "NJ"
      | "NM"
      | "NY"
      | "NC"
      | "ND"
      | "OH"
      | "OK"
      | "OR"
      | "PA"
      | "RI"
      | "SC"
      | "SD"
      | "TN"
      | "TX"
      | "UT"
      | "VT"
      | "VA"
      | "WA"
      | "WV"
      | "WI"
      | "WY"
      | "PR"
      | "VI"
      | "GU"
      | "AS"
      | "MP";
    /**
     * Licence number as published; case and spacing are ignored (`763827-sa` finds `763827-SA`)
     * @minLength 1
     * @maxLength 128
     * @example "406526-SA"
     */
    license_number: string;
  }[];
}

export interface WatchlistPage {
  data: WatchedLicence[];
  meta: PaginationMeta;
}

export interface WatchedLicence {
  state: string;
  /** Canonical form */
  license_number: string;
  license_credential_id: string;
  /** @format date-time */
  added_at: string;
}

export interface PaginationMeta {
  total: number;
  page: number;
  per_page: number;
}

export interface Unwatched {
  state: string;
  license_number: string;
  removed: true;
}

export type WebhookEndpointWithSecret = WebhookEndpoint & {
  /**
   * The signing secret (Standard Webhooks, `whsec_...`): shown this once
   * @example "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
   */
  secret: string;
};

export interface WebhookEndpoint {
  /** @example "we_de0000000000000000000001" */
  id: string;
  url: string;
  description: string | null;
  event_types:
    | (
        | "license_added"
        | "status_changed"
        | "expiration_changed"
        | "name_changed"
        | "left_source"
        | "returned_to_source"
        | "supervision_started"
        | "supervision_ended"
        | "supervision_transferred"
        | "roster_moved"
        | "state_loaded"
        | "supervisor_status_changed"
        | "supervision_gap_opened"
        | "designated_broker_changed"
        | "license_expiring"
        | "renewed_after_lapse"
        | "verification_job.completed"
        | "verification_job.failed"
      )[]
    | null;
  status: "enabled" | "disabled";
  /** Why it is disabled: by the account, the receiver answered 410 Gone, or the address rules refuse its URL */
  disabled_reason: string | null;
  /**
   * After a rotation: until then, deliveries carry a signature by the previous secret too
   * @format date-time
   */
  previous_secret_expires_at: string | null;
  /** @format date-time */
  created_at: string;
  /** @format date-time */
  updated_at: string;
}

/** @example {"url":"https://example.com/webhooks/licences","description":"Licence changes for the compliance team","event_types":["status_changed","supervision_ended"]} */
export interface WebhookEndpointCreate {
  /**
   * Where deliveries are POSTed: https, resolving to public addresses only
   * @format uri
   * @maxLength 2000
   * @example "https://example.com/webhooks/licences"
   */
  url: string;
  /** @maxLength 200 */
  description?: string | null;
  /**
   * The event types sent to the endpoint; null: every type
   * @minItems 1
   */
  event_types?:
    | (
        | "license_added"
        | "status_changed"
        | "expiration_changed"
        | "name_changed"
        | "left_source"
        | "returned_to_source"
        | "supervision_started"
        | "supervision_ended"
        | "supervision_transferred"
        | "roster_moved"
        | "state_loaded"
        | "supervisor_status_changed"
        | "supervision_gap_opened"
        | "designated_broker_changed"
        | "license_expiring"
        | "renewed_after_lapse"
        | "verification_job.completed"
        | "verification_job.failed"
      )[]
    | null;
}

export interface WebhookEndpointList {
  data: WebhookEndpoint[];
}

/** @example {"description":"Licence changes for the compliance team","event_types":["status_changed","supervision_ended"]} */
export interface WebhookEndpointUpdate {
  /**
   * Where deliveries are POSTed: https, resolving to public addresses only
   * @format uri
   * @maxLength 2000
   * @example "https://example.com/webhooks/licences"
   */
  url?: string;
  /** @maxLength 200 */
  description?: string | null;
  /**
   * The event types sent to the endpoint; null: every type
   * @minItems 1
   */
  event_types?:
    | (
        | "license_added"
        | "status_changed"
        | "expiration_changed"
        | "name_changed"
        | "left_source"
        | "returned_to_source"
        | "supervision_started"
        | "supervision_ended"
        | "supervision_transferred"
        | "roster_moved"
        | "state_loaded"
        | "supervisor_status_changed"
        | "supervision_gap_opened"
        | "designated_broker_changed"
        | "license_expiring"
        | "renewed_after_lapse"
        | "verification_job.completed"
        | "verification_job.failed"
      )[]
    | null;
  /** disabled: nothing is sent, and events are not queued for it */
  status?: "enabled" | "disabled";
}

export interface WebhookEndpointDeleted {
  id: string;
  deleted: true;
}

export interface WebhookDeliveryPage {
  data: WebhookDelivery[];
  meta: PaginationMeta;
}

export interface WebhookDelivery {
  /** The `webhook-id` header: the same on every attempt, for the receiver to deduplicate */
  id: string;
  /** The change event's id (`chg_...`), or the job's for a verification_job event */
  event_id: string;
  event_type:
    | "license_added"
    | "status_changed"
    | "expiration_changed"
    | "name_changed"
    | "left_source"
    | "returned_to_source"
    | "supervision_started"
    | "supervision_ended"
    | "supervision_transferred"
    | "roster_moved"
    | "state_loaded"
    | "supervisor_status_changed"
    | "supervision_gap_opened"
    | "designated_broker_changed"
    | "license_expiring"
    | "renewed_after_lapse"
    | "verification_job.completed"
    | "verification_job.failed";
  status: "pending" | "succeeded" | "failed";
  attempts: number;
  /** @format date-time */
  next_attempt_at: string | null;
  /** @format date-time */
  last_attempt_at: string | null;
  last_status_code: number | null;
  /** Why the last attempt got no answer (timeout, refused address, connection) */
  last_error: string | null;
  /** The first kilobyte of the last response body */
  last_response_excerpt: string | null;
  /** @format date-time */
  created_at: string;
}

export interface VerificationPage {
  data: VerificationRecord[];
  meta: {
    per_page: number;
    /** Pass as `cursor` for the next page; null on the last */
    next_cursor: string | null;
  };
}

export interface VerificationRecord {
  /**
   * The `Verification-Id` the answer carried
   * @format uuid
   */
  id: string;
  /**
   * When the answer was recorded (just before it was sent)
   * @format date-time
   */
  created_at: string;
  /**
   * The API key that asked; null for a roster job uploaded in the dashboard
   * @format uuid
   */
  key_id: string | null;
  /** job: a row of a roster verification job (its result carries this record's id) */
  operation: "verify" | "batch" | "job";
  /** Position in the batch request, or in the job's roster (its row - 1), from 0; null for verify */
  index: number | null;
  state: string;
  /** As asked */
  license_number: string;
  /** The name asked about; null when none was sent */
  name_sent: {
    name?: string;
    first_name?: string;
    last_name?: string;
  };
  verified: boolean;
  /** clear: on file with nothing to look at; consider: on file, and a reason needs a person's look; not_found: no licence with that state and number on file. The rules are in docs/verdicts.md. */
  verdict: Verdict;
  reasons: VerdictReason[];
  name_match: NameMatch | null;
  /** The status served (the answer's `licensee.status`) */
  license_status: string | null;
  /** The expiration date served */
  expiration_date: string | null;
  /** The state source the answer rests on */
  source_id: string | null;
  /** That source's snapshot date when answered */
  snapshot_date: string | null;
  /** The record's last_verified as served */
  last_verified: string | null;
  /** 200, or 304 when the caller's cached copy was current */
  http_status: number;
  /** SHA-256 (hex) of the JSON body served (for a 304, of the body the cached copy holds) */
  body_sha256: string;
  /** The name matcher that judged `name_match`; null when no name was sent */
  matcher_version: string | null;
  /** People's decisions about this answer, oldest first; they never change it */
  reviews: VerificationReview[];
}

/** How the name sent compares with the licence holder's. Null when no name was sent or no licence was found. */
export interface NameMatch {
  /** exact: the same name once case, accents, punctuation, spacing, order and suffixes are set aside; close: the same name written differently (nickname, initial, missing middle name, part of a two-word surname, a typing slip in a long name); mismatch: another name */
  result: "exact" | "close" | "mismatch";
  /**
   * Similarity from 0 to 1 (1 for exact)
   * @min 0
   * @max 1
   */
  score: number;
  /** The record's name the one sent was compared with, as published */
  compared_with: {
    field: "full_name" | "business_name";
    value: string;
  };
}

export interface VerificationReview {
  /** @format uuid */
  id: string;
  /** @format uuid */
  verification_id: string;
  decision: "accepted" | "rejected" | "escalated";
  reason: string;
  reviewer: Reviewer;
  /** @format date-time */
  created_at: string;
  /** The review's own receipt, verifiable with /.well-known/jwks.json */
  receipt: {
    kid: string;
    /** Compact JWS (typ `verification-review+jwt`) signed when the review was made */
    jws: string;
  };
}

export type Reviewer =
  | {
      type: "dashboard_user";
      /** The signed-in dashboard user */
      email: string;
    }
  | {
      type: "api_key";
      /**
       * The API key that sent the review
       * @format uuid
       */
      key_id: string;
      /** The reviewer's name as the caller gave it (`reviewer_name`) */
      name: string | null;
    };

export interface VerificationResponse {
  data: VerificationRecord;
}

export interface VerificationReceiptResponse {
  data: VerificationReceipt;
}

export interface VerificationReceipt {
  /** @format uuid */
  verification_id: string;
  /** The key that signed it, listed at /.well-known/jwks.json */
  kid: string;
  alg: "EdDSA";
  typ: "verification-receipt+jwt";
  /** @format date-time */
  signed_at: string;
  /** Compact JWS: its payload carries what was asked and answered, the source and snapshot, the matcher, the account and the SHA-256 of the body served (docs/verdicts.md) */
  jws: string;
}

export interface VerificationReviewResponse {
  data: VerificationReview;
}

/** @example {"decision":"accepted","reason":"Probation noted; the broker confirmed supervision","reviewer_name":"Pat Lee"} */
export interface VerificationReviewInput {
  /** What the reviewer decided about the answer */
  decision: "accepted" | "rejected" | "escalated";
  /**
   * @minLength 1
   * @maxLength 2000
   */
  reason: string;
  /**
   * Who reviewed, kept beside the API key that sent it
   * @minLength 1
   * @maxLength 200
   */
  reviewer_name?: string;
}

export interface VerificationReviewList {
  data: VerificationReview[];
}

export interface VerificationJobResponse {
  data: VerificationJob;
}

/** @example {"rows":[{"state":"TX","license_number":"406526-SA","first_name":"Laura","last_name":"Harris"},{"state":"TX","license_number":"9089631-B"},{"state":"FL","license_number":"0252165"},{"state":"TX","license_number":"000000-SA"}],"watch":true,"label":"Onboarding, November"} */
export interface VerificationJobRequest {
  /**
   * The roster: 1 to 100,000 batch items, checked as batch items are
   * @maxItems 100000
   */
  rows: BatchVerifyItem[];
  /** Also put every row found on the account's watchlist, in roster order, within the plan's limit */
  watch?: boolean;
  /**
   * A name for the job, shown in lists
   * @minLength 1
   * @maxLength 200
   */
  label?: string;
}

export interface VerificationJobPage {
  data: VerificationJob[];
  meta: {
    per_page: number;
    next_cursor: string | null;
  };
}

export interface VerificationJobResultPage {
  data: VerificationJobResult[];
  meta: {
    per_page: number;
    /** Rows done so far that match the filters */
    total: number;
    job_status: "queued" | "running" | "completed" | "failed" | "cancelled";
    next_cursor: string | null;
  };
}

export interface VerificationJobResult {
  state: string;
  license_number: string;
  verified: boolean;
  licensee?: Licensee | null;
  /** clear: on file with nothing to look at; consider: on file, and a reason needs a person's look; not_found: no licence with that state and number on file. The rules are in docs/verdicts.md. */
  verdict: Verdict;
  reasons: VerdictReason[];
  name_match: NameMatch | null;
  source: VerificationSource | null;
  /** The row's place in the roster, from 1 (a CSV's header is not a row) */
  row: number;
  /** The name the row sent (`name`, or `first_name` and `last_name`), to read beside the name on file (`licensee.full_name`, `name_match`); null when the row sent none */
  name_sent: {
    name?: string;
    first_name?: string;
    last_name?: string;
  };
  /**
   * Its verification record (GET /api/v1/verifications/{id})
   * @format uuid
   */
  verification_id: string;
  /** With `watch`, for a found row: watched (on the watchlist), over_limit (the limit was reached), pending (the job has not stopped yet); else null */
  watchlist: "watched" | "over_limit" | "pending";
}

export interface Licensee {
  /**
   * Licence credential id (UUIDv5 of state and canonical licence number)
   * @format uuid
   */
  id: string;
  full_name?: string | null;
  /** Canonical licence number */
  license_number: string;
  /** Licence number as published */
  license_number_display?: string | null;
  /** Normalized type: broker, salesperson, broker_associate, brokerage, branch_office, officer, professional_inspector, real_estate_inspector, apprentice_inspector, instructor, other */
  license_type?: string | null;
  license_type_display?: string | null;
  /** Status as published (e.g. Active, Probation - Active) */
  status?: string | null;
  state: string;
  /** @format date */
  issue_date?: string | null;
  /** @format date */
  expiration_date?: string | null;
  brokerage?: string | null;
  /** How the jurisdiction covers supervision: verified_graph (published links, complete), verified_graph_partial (published links, some kinds missing), source_context_only (the source names an employer or brokerage but the service does not expose it as a verified supervision graph), source_not_published, not_yet_ingested. */
  relationship_coverage: RelationshipCoverage;
  brokerage_source?: "verified_supervision" | "business_name";
  brokerage_confidence?: "verified" | "source_reported";
  /** Why no supervision is listed; null when some is: authoritative_absence, partial_coverage, source_context_only, source_not_published, not_yet_ingested */
  supervision_empty_reason?: string | null;
  supervising_brokerages: string[];
  supervising_brokerages_detail: PublicSupervisorDetail[];
  /** sponsored, employed, branch, supervised, independent */
  employment_type?: string | null;
  designated_brokers: PublicDesignatedBroker[];
  designated_broker?: PublicDesignatedBroker | null;
  current_affiliate_roles: string[];
  /** @format date-time */
  last_verified?: string | null;
  first_name?: string | null;
  middle_name?: string | null;
  last_name?: string | null;
  business_name?: string | null;
  city?: string | null;
  address?: PublicAddress | null;
  disciplinary_actions: any[];
  data_source_notes: string[];
}

export interface PublicSupervisorDetail {
  name: string;
  license_number: string;
  address?: PublicAddress | null;
}

export interface PublicAddress {
  /**
   * business, mailing or physical
   * @example "business"
   */
  kind: string;
  line1?: string | null;
  line2?: string | null;
  city?: string | null;
  county?: string | null;
  region?: string | null;
  postal_code?: string | null;
  country?: string | null;
}

export interface PublicDesignatedBroker {
  name?: string | null;
  license_number: string;
  address?: PublicAddress | null;
}

/** The state source the answer rests on; null for a jurisdiction with no data here. */
export interface VerificationSource {
  id: string | null;
  name: string | null;
  refresh_frequency: string | null;
  /**
   * Date of the source snapshot last published
   * @format date
   */
  snapshot_date: string | null;
  /**
   * The last successful refresh or import of the state
   * @format date-time
   */
  refreshed_at: string | null;
  /** Whole days since refreshed_at */
  age_days: number | null;
  /**
   * refreshed_at plus twice the refresh frequency; null for an irregular source
   * @format date-time
   */
  stale_after: string | null;
  /** Past stale_after (the reason source_stale) */
  stale: boolean;
}

export interface VerificationJobReceiptResponse {
  data: VerificationJobReceipt;
}

export interface VerificationJobReceipt {
  /** @format uuid */
  job_id: string;
  /** The key that signed it, listed at /.well-known/jwks.json */
  kid: string;
  alg: "EdDSA";
  typ: "verification-job-summary+jwt";
  /** @format date-time */
  signed_at: string;
  /** Compact JWS: its payload carries the job (id, label, status, rows, counts, created_at, finished_at) and results: rows and sha256, the SHA-256 of one line per result in roster order, "<row> <verification id> <verdict> <reasons, comma-separated>" and a newline (docs/verdicts.md) */
  jws: string;
}

export interface ChangeFeed {
  data: ChangeEvent[];
  /** Where to go on from (also to poll for new events); null before any event */
  next_cursor: string | null;
  /** More events are waiting now */
  has_more: boolean;
}

export interface LicenseeList {
  data: Licensee[];
  meta: PaginationMeta;
}

/** The one current supervisor (the brokerage link first, then the newest), or null */
export interface LegacySupervisor {
  data: SupervisorItem | null;
}

export interface SupervisorItem {
  license_credential_id: string;
  license_number: string;
  full_name?: string | null;
  /** Normalized licence type of the supervisor */
  license_class?: string | null;
  affiliate_role: string;
  relationship_type: string;
  /** @format date */
  effective_from: string;
  /** @format date */
  effective_to?: string | null;
}

export interface RawLicenseList {
  data: RawLicense[];
  meta: PaginationMeta;
}

/** The lower-level normalized licence shape */
export interface RawLicense {
  id: string;
  state: string;
  license_number: string;
  license_number_display: string | null;
  license_type_normalized: string | null;
  license_type_display: string | null;
  status: string | null;
  status_normalized: string | null;
  entity_type: string | null;
  full_name: string | null;
  first_name: string | null;
  middle_name: string | null;
  last_name: string | null;
  suffix: string | null;
  business_name: string | null;
  issue_date: string | null;
  expiration_date: string | null;
  address: {
    kind: string;
    [key: string]: any;
  };
  source: string | null;
  snapshot_date: string | null;
  last_verified: string | null;
}

export interface LicenseTypeCounts {
  data: {
    state: string;
    license_type: string | null;
    count: number;
  }[];
}

export interface RawLicenseResponse {
  /** The lower-level normalized licence shape */
  data: RawLicense;
}

export interface VerifyResponse {
  verified: boolean;
  licensee?: Licensee | null;
  /** clear: on file with nothing to look at; consider: on file, and a reason needs a person's look; not_found: no licence with that state and number on file. The rules are in docs/verdicts.md. */
  verdict: Verdict;
  reasons: VerdictReason[];
  name_match: NameMatch | null;
  source: VerificationSource | null;
}

export interface BatchVerifyResponse {
  data: BatchVerifyResult[];
}

export interface BatchVerifyResult {
  /** Position of the item in the request, from 0 */
  index: number;
  state: string;
  license_number: string;
  verified: boolean;
  licensee?: Licensee | null;
  /** clear: on file with nothing to look at; consider: on file, and a reason needs a person's look; not_found: no licence with that state and number on file. The rules are in docs/verdicts.md. */
  verdict: Verdict;
  reasons: VerdictReason[];
  name_match: NameMatch | null;
  source: VerificationSource | null;
}

/** @example {"licenses":[{"state":"TX","license_number":"406526-SA","first_name":"Laura","last_name":"Harris"},{"state":"TX","license_number":"9089631-B"},{"state":"FL","license_number":"0252165"},{"state":"TX","license_number":"000000-SA"}]} */
export interface BatchVerifyRequest {
  /**
   * @maxItems 100
   * @minItems 1
   */
  licenses: BatchVerifyItem[];
}

export interface BatchVerifyItem {
  /**
   * Two-letter code of a U.S. jurisdiction: AL, AK, AZ, AR, CA, CO, CT, DE, DC, FL, GA, HI, ID, IL, IN, IA, KS, KY, LA, ME, MD, MA, MI, MN, MS, MO, MT, NE, NV, NH, NJ, NM, NY, NC, ND, OH, OK, OR, PA, RI, SC, SD, TN, TX, UT, VT, VA, WA, WV, WI, WY, PR, VI, GU, AS, MP. Lower case is accepted too (tx is TX); answers give it in upper case
   * @example "TX"
   */
  state:
    | "AL"
    | "AK"
    | "AZ"
    | "AR"
    | "CA"
    | "CO"
    | "CT"
    | "DE"
    | "DC"
    | "FL"
    | "GA"
    | "HI"
    | "ID"
    | "IL"
    | "IN"
    | "IA"
    | "KS"
    | "KY"
    | "LA"
    | "ME"
    | "MD"
    | "MA"
    | "MI"
    | "MN"
    | "MS"
    | "MO"
    | "MT"
    | "NE"
    | "NV"
    | "NH"
    | "NJ"
    | "NM"
    | "NY"
    | "NC"
    | "ND"
    | "OH"
    | "OK"
    | "OR"
    | "PA"
    | "RI"
    | "SC"
    | "SD"
    | "TN"
    | "TX"
    | "UT"
    | "VT"
    | "VA"
    | "WA"
    | "WV"
    | "WI"
    | "WY"
    | "PR"
    | "VI"
    | "GU"
    | "AS"
    | "MP";
  /**
   * Licence number as published; case and spacing are ignored (`763827-sa` finds `763827-SA`)
   * @minLength 1
   * @maxLength 128
   * @example "406526-SA"
   */
  license_number: string;
  /**
   * The holder's name in any order ("SMITH, JOHN A" or "John A. Smith"), or a firm's business name: adds name_match
   * @minLength 1
   * @maxLength 200
   */
  name?: string;
  /**
   * The holder's given name (with last_name; instead of name)
   * @minLength 1
   * @maxLength 200
   */
  first_name?: string;
  /**
   * The holder's surname (with first_name; instead of name)
   * @minLength 1
   * @maxLength 200
   */
  last_name?: string;
}

export interface LicenseeResponse {
  data: Licensee;
}

export interface AffiliationHistory {
  data: AffiliationHistoryItem[];
}

export interface AffiliationHistoryItem {
  supervisor_license_credential_id: string;
  supervisor_license_number: string;
  supervisor_full_name?: string | null;
  affiliate_role: string;
  relationship_type: string;
  /** @format date */
  effective_from: string;
  /** @format date */
  effective_to?: string | null;
  /** active, ended, scheduled: in force on as_of (today without as_of), ended by then, or starting later */
  status: string;
}

export interface SupervisorList {
  data: SupervisorItem[];
}

export interface AffiliateList {
  data: AffiliateItem[];
  meta: PaginationMeta;
}

export interface AffiliateItem {
  affiliate_license_credential_id: string;
  license_number: string;
  full_name?: string | null;
  /** Normalized licence type of the affiliate */
  license_class?: string | null;
  affiliate_role: string;
  relationship_type: string;
  /** @format date */
  effective_from: string;
}

export interface RosterHistory {
  supervisor: {
    license_credential_id: string;
    state: string;
    license_number: string;
    full_name: string | null;
  };
  period: "month" | "week";
  /**
   * The first period's first day
   * @format date
   */
  from: string;
  /**
   * The last period's last day
   * @format date
   */
  to: string;
  /** Relationships in force on the day before `from` */
  in_force_before: number;
  data: RosterPeriod[];
  /** The page of each period's lists named: a list holds more when its count exceeds page × per_page */
  meta: {
    page: number;
    per_page: number;
  };
}

export interface RosterPeriod {
  /** @format date */
  period_start: string;
  /** @format date */
  period_end: string;
  /** Relationships that began in the period */
  joined: number;
  /** Relationships that ended in the period (not in force from their effective_to) */
  left: number;
  /** Relationships in force on the period's last day */
  in_force_at_end: number;
  transfers_in: number;
  transfers_out: number;
  /** By start date, then licence number: the page `page` of `per_page` (`joined` counts all; the CSV names every one) */
  joined_affiliates: RosterAffiliate[];
  /** By end date, then licence number: the page `page` of `per_page` (`left` counts all) */
  left_affiliates: RosterAffiliate[];
}

export interface RosterAffiliate {
  affiliate_license_credential_id: string;
  license_number: string;
  full_name: string | null;
  license_class: string | null;
  relationship_type: string;
  affiliate_role: string;
  /** @format date */
  effective_from: string;
  /** @format date */
  effective_to: string | null;
  /** On a joiner: the supervisor whose relationship of this type ended at most 90 days before this one began (a transfer in) */
  transferred_from: RosterCounterpart;
  /** On a leaver: the supervisor whose relationship of this type began at most 90 days after this one ended (a transfer out) */
  transferred_to: RosterCounterpart;
}

/** On a joiner: the supervisor whose relationship of this type ended at most 90 days before this one began (a transfer in) */
export interface RosterCounterpart {
  license_credential_id: string;
  license_number: string;
  full_name: string | null;
  /** @format date */
  effective_from: string;
  /** @format date */
  effective_to: string | null;
}

export interface CredentialHierarchy {
  credential: {
    license_credential_id: string;
    state: string;
    license_number: string;
    full_name: string | null;
    license_type: string | null;
    status: string | null;
  };
  /** Open supervising relationships walked upward, by depth */
  levels: HierarchyLevel[];
  max_depth: number;
  depth_reached: number;
  /** top: every branch ended at a licence nobody supervises; cycle: a branch led back to a licence already in the chain; max_depth: the bound stopped the walk */
  terminated_by: "top" | "cycle" | "max_depth";
  reached_top: boolean;
  cycle_detected: boolean;
  /** True when max_depth stopped the walk with supervisors left above */
  truncated: boolean;
}

export interface HierarchyLevel {
  license_credential_id: string;
  state: string;
  license_number: string;
  full_name: string | null;
  license_type: string | null;
  status: string | null;
  /** 1 for a direct supervisor of the credential, 2 for theirs, ... */
  depth: number;
  /** The credential one level down that this one supervises */
  supervises_license_credential_id: string;
  relationship_type: string;
  affiliate_role: string;
  /** @format date */
  effective_from: string;
  effective_to: string | null;
}

export type QueryParamsType = Record<string | number, any>;
export type ResponseFormat = keyof Omit<Body, "body" | "bodyUsed">;

export interface FullRequestParams extends Omit<RequestInit, "body"> {
  /** set parameter to `true` for call `securityWorker` for this request */
  secure?: boolean;
  /** request path */
  path: string;
  /** content type of request body */
  type?: ContentType;
  /** query params */
  query?: QueryParamsType;
  /** format of response (i.e. response.json() -> format: "json") */
  format?: ResponseFormat;
  /** request body */
  body?: unknown;
  /** base url */
  baseUrl?: string;
  /** request cancellation token */
  cancelToken?: CancelToken;
}

export type RequestParams = Omit<
  FullRequestParams,
  "body" | "method" | "query" | "path"
>;

export interface ApiConfig<SecurityDataType = unknown> {
  baseUrl?: string;
  baseApiParams?: Omit<RequestParams, "baseUrl" | "cancelToken" | "signal">;
  securityWorker?: (
    securityData: SecurityDataType | null,
  ) => Promise<RequestParams | void> | RequestParams | void;
  customFetch?: typeof fetch;
}

export interface HttpResponse<D extends unknown, E extends unknown = unknown>
  extends Response {
  data: D;
  error: E;
}

type CancelToken = Symbol | string | number;

export type ContentType =
  | "application/json"
  | "application/vnd.api+json"
  | "multipart/form-data"
  | "application/x-www-form-urlencoded"
  | "text/plain";

export class HttpClient<SecurityDataType = unknown> {
  public baseUrl: string = "/";
  private securityData: SecurityDataType | null = null;
  private securityWorker?: ApiConfig<SecurityDataType>["securityWorker"];
  private abortControllers = new Map<CancelToken, AbortController>();
  private customFetch = (...fetchParams: Parameters<typeof fetch>) =>
    fetch(...fetchParams);

  private baseApiParams: RequestParams = {
    credentials: "same-origin",
    headers: {},
    redirect: "follow",
    referrerPolicy: "no-referrer",
  };

  constructor(apiConfig: ApiConfig<SecurityDataType> = {}) {
    Object.assign(this, apiConfig);
  }

  public setSecurityData = (data: SecurityDataType | null) => {
    this.securityData = data;
  };

  protected encodeQueryParam(key: string, value: any) {
    const encodedKey = encodeURIComponent(key);
    return `${encodedKey}=${encodeURIComponent(typeof value === "number" ? value : `${value}`)}`;
  }

  protected addQueryParam(query: QueryParamsType, key: string) {
    return this.encodeQueryParam(key, query[key]);
  }

  protected addArrayQueryParam(query: QueryParamsType, key: string) {
    const value = query[key];
    return value.map((v: any) => this.encodeQueryParam(key, v)).join("&");
  }

  protected toQueryString(rawQuery?: QueryParamsType): string {
    const query = rawQuery || {};
    const keys = Object.keys(query).filter(
      (key) => "undefined" !== typeof query[key],
    );
    return keys
      .map((key) =>
        Array.isArray(query[key])
          ? this.addArrayQueryParam(query, key)
          : this.addQueryParam(query, key),
      )
      .join("&");
  }

  protected addQueryParams(rawQuery?: QueryParamsType): string {
    const queryString = this.toQueryString(rawQuery);
    return queryString ? `?${queryString}` : "";
  }

  private contentFormatters: Record<ContentType, (input: any) => any> = {
    ["application/json"]: (input: any) =>
      input !== null && (typeof input === "object" || typeof input === "string")
        ? JSON.stringify(input)
        : input,
    ["application/vnd.api+json"]: (input: any) =>
      input !== null && (typeof input === "object" || typeof input === "string")
        ? JSON.stringify(input)
        : input,
    ["text/plain"]: (input: any) =>
      input !== null && typeof input !== "string"
        ? JSON.stringify(input)
        : input,
    ["multipart/form-data"]: (input: any) => {
      if (input instanceof FormData) {
        return input;
      }

      return Object.keys(input || {}).reduce((formData, key) => {
        const property = input[key];
        formData.append(
          key,
          property instanceof Blob
            ? property
            : typeof property === "object" && property !== null
              ? JSON.stringify(property)
              : `${property}`,
        );
        return formData;
      }, new FormData());
    },
    ["application/x-www-form-urlencoded"]: (input: any) =>
      this.toQueryString(input),
  };

  protected mergeRequestParams(
    params1: RequestParams,
    params2?: RequestParams,
  ): RequestParams {
    return {
      ...this.baseApiParams,
      ...params1,
      ...(params2 || {}),
      headers: {
        ...(this.baseApiParams.headers || {}),
        ...(params1.headers || {}),
        ...((params2 && params2.headers) || {}),
      },
    };
  }

  protected createAbortSignal = (
    cancelToken: CancelToken,
  ): AbortSignal | undefined => {
    if (this.abortControllers.has(cancelToken)) {
      const abortController = this.abortControllers.get(cancelToken);
      if (abortController) {
        return abortController.signal;
      }
      return void 0;
    }

    const abortController = new AbortController();
    this.abortControllers.set(cancelToken, abortController);
    return abortController.signal;
  };

  public abortRequest = (cancelToken: CancelToken) => {
    const abortController = this.abortControllers.get(cancelToken);

    if (abortController) {
      abortController.abort();
      this.abortControllers.delete(cancelToken);
    }
  };

  public request = async <T = any, E = any>({
    body,
    secure,
    path,
    type,
    query,
    format,
    baseUrl,
    cancelToken,
    ...params
  }: FullRequestParams): Promise<HttpResponse<T, E>> => {
    const secureParams =
      ((typeof secure === "boolean" ? secure : this.baseApiParams.secure) &&
        this.securityWorker &&
        (await this.securityWorker(this.securityData))) ||
      {};
    const requestParams = this.mergeRequestParams(params, secureParams);
    const queryString = query && this.toQueryString(query);
    const payloadFormatter = this.contentFormatters[type || "application/json"];
    const responseFormat = format || requestParams.format;

    return this.customFetch(
      `${baseUrl || this.baseUrl || ""}${path}${queryString ? `?${queryString}` : ""}`,
      {
        ...requestParams,
        headers: {
          ...(requestParams.headers || {}),
          ...(type && type !== "multipart/form-data"
            ? { "Content-Type": type }
            : {}),
        },
        signal:
          (cancelToken
            ? this.createAbortSignal(cancelToken)
            : requestParams.signal) || null,
        body:
          typeof body === "undefined" || body === null
            ? null
            : payloadFormatter(body),
      },
    ).then(async (response) => {
      const r = response as HttpResponse<T, E>;
      r.data = null as unknown as T;
      r.error = null as unknown as E;

      const responseToParse = responseFormat ? response.clone() : response;
      const data = !responseFormat
        ? r
        : await responseToParse[responseFormat]()
            .then((data) => {
              if (r.ok) {
                r.data = data;
              } else {
                r.error = data;
              }
              return r;
            })
            .catch((e) => {
              r.error = e;
              return r;
            });

      if (cancelToken) {
        this.abortControllers.delete(cancelToken);
      }

      if (!response.ok) throw data;
      return data;
    });
  };
}

/**
 * @title Licensee Verification Service
 * @version 1.0.0
 * @baseUrl /
 *
 * Verify U.S. real-estate licences one at a time or a hundred at a time, search licensees within a state, and walk supervision relationships with their effective dates.
 *
 * **Errors.** Invalid query, path or body: 422 `{"detail": [{"loc", "msg", "type"}]}`; malformed JSON: 422 with `loc: ["body"]` and `type: "json_invalid"`; a body that is not `application/json`: 422 with `type: "content_type_invalid"`. Unknown licence, credential or path: 404 `{"detail": "..."}`. A method the path does not take: 405 with `Allow`; `OPTIONS`: 204 with `Allow`. Filter values (`status`, `license_type`, `affiliate_role`, `relationship_type`) are taken in any letter case.
 *
 * **Licence numbers** are matched in canonical form: trimmed, upper-cased, inner spaces removed, leading zeros and published prefixes/suffixes kept. State codes are case-insensitive.
 *
 * **affiliate_role** values: salesperson, broker_associate, brokerage, branch, officer, apprentice, inspector. **relationship_type** values: sponsoring_broker, employing_broker, designated_broker, designated_officer, main_office, supervising_inspector, supervising_broker. Edges point from the supervisor to the supervised licence.
 *
 * **Status filter** values: active, inactive, expired, suspended. Each published status maps to exactly one (after lower-casing and dropping punctuation):
 *
 * | published status | filter value |
 * |---|---|
 * | active | active |
 * | current | active |
 * | current active | active |
 * | licensed | active |
 * | licensed nba | active |
 * | probation | active |
 * | probation active | active |
 * | probation inactive | inactive |
 * | inactive | inactive |
 * | current inactive | inactive |
 * | invol inactive | inactive |
 * | involuntary inactive | inactive |
 * | revoked | inactive |
 * | surrendered | inactive |
 * | deceased | inactive |
 * | deleted | inactive |
 * | relinquished | inactive |
 * | cancelled | inactive |
 * | canceled | inactive |
 * | retired | inactive |
 * | null and void | inactive |
 * | expired | expired |
 * | expired less than 6 months | expired |
 * | expired more than 6 months | expired |
 * | delinquent | expired |
 * | current delinquent | expired |
 * | suspended | suspended |
 * | current suspended | suspended |
 *
 * **Authentication.** Every `/api/v1` operation except `GET /api/v1/coverage` needs `Authorization: Bearer <API key>`. A missing, malformed, unknown or revoked key gets 401 with `WWW-Authenticate: Bearer` (with `error="invalid_token"` for a bad key).
 *
 * **Plans and quotas** (lookups per calendar month, UTC): free 25 (no batch), starter 5,000, growth 50,000, enterprise 1,000,000. Metered lookups: search, verify, batch, get, affiliations, supervisors, affiliates, hierarchy and the change feed and every legacy licensee/licence operation; a verification job counts one unit per 100 rows started, as it runs; each HTTP call counts once (a batch of 100 included) when it answers 2xx, 304 (a conditional request confirming the licence unchanged) or 404; HEAD counts like GET. Not metered: health, coverage, states, sources, readiness, account, usage, keys, watchlist, webhooks, verification records, reading jobs and their results. Metered responses carry `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers-10); a spent quota gets 429 with `Retry-After`; batch on the free plan gets 402. **Request rate**: every authenticated call also counts against its account's rate (free 1/s, bursts of 5; starter 10/s, bursts of 20; growth 25/s, bursts of 50; enterprise 100/s, bursts of 200, unless the operator set others), listed as the `"rate"` item of the same headers; over it, 429 with `Retry-After` and `limit: "rate"` in the body (a spent quota's says `"monthly"`), not metered.
 *
 * **Deprecation.** Legacy operations are marked deprecated and answer with `Deprecation` (RFC 9745) and `Link: <successor>; rel="successor-version"` headers; they stay available in v1.
 */
export class Api<
  SecurityDataType extends unknown,
> extends HttpClient<SecurityDataType> {
  health = {
    /**
     * @description Always 200 while the process answers. `search_index.status` tells orchestrators whether searches are served yet, without an API key.
     *
     * @tags Health
     * @name GetHealth
     * @summary Liveness: the process answers; whether its search index is ready
     * @request GET:/health
     */
    getHealth: (params: RequestParams = {}) =>
      this.request<Health, HTTPValidationError>({
        path: `/health`,
        method: "GET",
        format: "json",
        ...params,
      }),
  };
  api = {
    /**
     * @description 503 with the same body shape, naming the failing store, when one does not answer.
     *
     * @tags Health
     * @name GetReadiness
     * @summary Readiness: every store the service uses answers
     * @request GET:/api/v1/readiness
     * @secure
     */
    getReadiness: (params: RequestParams = {}) =>
      this.request<
        Readiness,
        | ErrorResponse
        | HTTPValidationError
        | RateLimitedResponse
        | ReadinessFailure
      >({
        path: `/api/v1/readiness`,
        method: "GET",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description Record counts and last refresh are computed from the data at every import.
     *
     * @tags Coverage
     * @name GetCoverage
     * @summary Coverage per jurisdiction (public, no key)
     * @request GET:/api/v1/coverage
     */
    getCoverage: (params: RequestParams = {}) =>
      this.request<Coverage, HTTPValidationError | ErrorResponse>({
        path: `/api/v1/coverage`,
        method: "GET",
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags Coverage
     * @name ListStates
     * @summary Supported, active jurisdictions
     * @request GET:/api/v1/states
     * @secure
     */
    listStates: (params: RequestParams = {}) =>
      this.request<
        StateItem[],
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/states`,
        method: "GET",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags Coverage
     * @name ListSources
     * @summary Configured upstream sources, one per state, with their last import
     * @request GET:/api/v1/sources
     * @secure
     */
    listSources: (params: RequestParams = {}) =>
      this.request<
        SourceItem[],
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/sources`,
        method: "GET",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags Coverage
     * @name GetSourcesCoverage
     * @summary Coverage with sources and totals
     * @request GET:/api/v1/sources/coverage
     * @secure
     */
    getSourcesCoverage: (params: RequestParams = {}) =>
      this.request<
        SourcesCoverage,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/sources/coverage`,
        method: "GET",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags Account
     * @name GetAccount
     * @summary The account tied to the API key
     * @request GET:/api/v1/account
     * @secure
     */
    getAccount: (params: RequestParams = {}) =>
      this.request<
        Account,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/account`,
        method: "GET",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags Account
     * @name GetAccountUsage
     * @summary This calendar month's metered usage (UTC), by endpoint, with quota and reset
     * @request GET:/api/v1/account/usage
     * @secure
     */
    getAccountUsage: (params: RequestParams = {}) =>
      this.request<
        AccountUsage,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/account/usage`,
        method: "GET",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags Account
     * @name ListApiKeys
     * @summary Active API keys of the account (hashed, never the raw value)
     * @request GET:/api/v1/api-keys
     * @secure
     */
    listApiKeys: (params: RequestParams = {}) =>
      this.request<
        ApiKey[],
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/api-keys`,
        method: "GET",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags Account
     * @name CreateApiKey
     * @summary Create an API key; the raw key is in this response only
     * @request POST:/api/v1/api-keys
     * @secure
     */
    createApiKey: (data?: CreateApiKeyRequest, params: RequestParams = {}) =>
      this.request<
        CreatedApiKey,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/api-keys`,
        method: "POST",
        body: data,
        secure: true,
        type: "application/json",
        format: "json",
        ...params,
      }),

    /**
     * @description 404 for an unknown key or another account's; 409 for the account's last active key (create another first).
     *
     * @tags Account
     * @name DeleteApiKey
     * @summary Revoke an API key at once
     * @request DELETE:/api/v1/api-keys/{key_id}
     * @secure
     */
    deleteApiKey: (keyId: string, params: RequestParams = {}) =>
      this.request<
        DeletedApiKey,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/api-keys/${keyId}`,
        method: "DELETE",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description Idempotent. 402 past the plan's limit (free 1, starter 5, growth 25, enterprise 60).
     *
     * @tags Monitoring
     * @name FollowState
     * @summary Follow a whole state: every change event of it goes to the account's webhooks
     * @request PUT:/api/v1/watchlist/states/{state}
     * @secure
     */
    followState: (
      state:
        | "AL"
        | "AK"
        | "AZ"
        | "AR"
        | "CA"
        | "CO"
        | "CT"
        | "DE"
        | "DC"
        | "FL"
        | "GA"
        | "HI"
        | "ID"
        | "IL"
        | "IN"
        | "IA"
        | "KS"
        | "KY"
        | "LA"
        | "ME"
        | "MD"
        | "MA"
        | "MI"
        | "MN"
        | "MS"
        | "MO"
        | "MT"
        | "NE"
        | "NV"
        | "NH"
        | "NJ"
        | "NM"
        | "NY"
        | "NC"
        | "ND"
        | "OH"
        | "OK"
        | "OR"
        | "PA"
        | "RI"
        | "SC"
        | "SD"
        | "TN"
        | "TX"
        | "UT"
        | "VT"
        | "VA"
        | "WA"
        | "WV"
        | "WI"
        | "WY"
        | "PR"
        | "VI"
        | "GU"
        | "AS"
        | "MP",
      params: RequestParams = {},
    ) =>
      this.request<
        FollowedState,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/watchlist/states/${state}`,
        method: "PUT",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags Monitoring
     * @name UnfollowState
     * @summary Stop following a state
     * @request DELETE:/api/v1/watchlist/states/{state}
     * @secure
     */
    unfollowState: (
      state:
        | "AL"
        | "AK"
        | "AZ"
        | "AR"
        | "CA"
        | "CO"
        | "CT"
        | "DE"
        | "DC"
        | "FL"
        | "GA"
        | "HI"
        | "ID"
        | "IL"
        | "IN"
        | "IA"
        | "KS"
        | "KY"
        | "LA"
        | "ME"
        | "MD"
        | "MA"
        | "MI"
        | "MN"
        | "MS"
        | "MO"
        | "MT"
        | "NE"
        | "NV"
        | "NH"
        | "NJ"
        | "NM"
        | "NY"
        | "NC"
        | "ND"
        | "OH"
        | "OK"
        | "OR"
        | "PA"
        | "RI"
        | "SC"
        | "SD"
        | "TN"
        | "TX"
        | "UT"
        | "VT"
        | "VA"
        | "WA"
        | "WV"
        | "WI"
        | "WY"
        | "PR"
        | "VI"
        | "GU"
        | "AS"
        | "MP",
      params: RequestParams = {},
    ) =>
      this.request<
        UnfollowedState,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/watchlist/states/${state}`,
        method: "DELETE",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags Monitoring
     * @name ListFollowedStates
     * @summary The states the account follows whole
     * @request GET:/api/v1/watchlist/states
     * @secure
     */
    listFollowedStates: (params: RequestParams = {}) =>
      this.request<
        FollowedStates,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/watchlist/states`,
        method: "GET",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description Each reached mark is told once as `license_expiring`, counted in the licence's state's local date (docs/changes.md, *Expiries ahead*).
     *
     * @tags Monitoring
     * @name GetExpiryAlerts
     * @summary The days before a watched licence's expiration date the account is told
     * @request GET:/api/v1/watchlist/expiry-alerts
     * @secure
     */
    getExpiryAlerts: (params: RequestParams = {}) =>
      this.request<
        ExpiryAlerts,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/watchlist/expiry-alerts`,
        method: "GET",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description From the next pass (each hour), the nearest chosen mark a licence has reached is told, once; marks told before stay told.
     *
     * @tags Monitoring
     * @name SetExpiryAlerts
     * @summary Choose the days before a watched licence's expiration date to be told
     * @request PUT:/api/v1/watchlist/expiry-alerts
     * @secure
     */
    setExpiryAlerts: (data: ExpiryAlertsRequest, params: RequestParams = {}) =>
      this.request<
        ExpiryAlerts,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/watchlist/expiry-alerts`,
        method: "PUT",
        body: data,
        secure: true,
        type: "application/json",
        format: "json",
        ...params,
      }),

    /**
     * @description A licence not on file may be watched: its `license_added` event comes when it appears. 402 when the account would pass its plan's limit (free 25, starter 1,000, growth 10,000, enterprise 100,000); then nothing is added.
     *
     * @tags Monitoring
     * @name WatchLicences
     * @summary Watch licences (up to 1,000 a call)
     * @request POST:/api/v1/watchlist
     * @secure
     */
    watchLicences: (data: WatchRequest, params: RequestParams = {}) =>
      this.request<
        WatchResult,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/watchlist`,
        method: "POST",
        body: data,
        secure: true,
        type: "application/json",
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags Monitoring
     * @name ListWatchedLicences
     * @summary The watched licences, by state and licence number
     * @request GET:/api/v1/watchlist
     * @secure
     */
    listWatchedLicences: (
      query?: {
        /**
         * Page number, from 1
         * @min 1
         * @default 1
         */
        page?: number;
        /**
         * Items per page, 1 to 1,000
         * @min 1
         * @max 1000
         * @default 100
         */
        per_page?: number;
      },
      params: RequestParams = {},
    ) =>
      this.request<
        WatchlistPage,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/watchlist`,
        method: "GET",
        query: query,
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags Monitoring
     * @name UnwatchLicence
     * @summary Stop watching a licence
     * @request DELETE:/api/v1/watchlist/{state}/{license_number}
     * @secure
     */
    unwatchLicence: (
      state:
        | "AL"
        | "AK"
        | "AZ"
        | "AR"
        | "CA"
        | "CO"
        | "CT"
        | "DE"
        | "DC"
        | "FL"
        | "GA"
        | "HI"
        | "ID"
        | "IL"
        | "IN"
        | "IA"
        | "KS"
        | "KY"
        | "LA"
        | "ME"
        | "MD"
        | "MA"
        | "MI"
        | "MN"
        | "MS"
        | "MO"
        | "MT"
        | "NE"
        | "NV"
        | "NH"
        | "NJ"
        | "NM"
        | "NY"
        | "NC"
        | "ND"
        | "OH"
        | "OK"
        | "OR"
        | "PA"
        | "RI"
        | "SC"
        | "SD"
        | "TN"
        | "TX"
        | "UT"
        | "VT"
        | "VA"
        | "WA"
        | "WV"
        | "WI"
        | "WY"
        | "PR"
        | "VI"
        | "GU"
        | "AS"
        | "MP",
      licenseNumber: string,
      params: RequestParams = {},
    ) =>
      this.request<
        Unwatched,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/watchlist/${state}/${licenseNumber}`,
        method: "DELETE",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description The account's watched licences and followed states decide which events are sent; `event_types` narrows them. Each delivery is a POST of a `WebhookPayload` signed as the Standard Webhooks specification says: `webhook-id` (the same on every attempt: deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">` under the endpoint's `whsec_` secret; after a rotation, a second signature by the previous secret for 24 hours). Verify with a published library, for example `new Webhook(secret).verify(body, headers)` from `standardwebhooks` on npm. Answer 2xx within 15 seconds; anything else, or no answer, is retried with exponential backoff for about 27 hours, then the delivery is failed. 410 Gone disables the endpoint. The URL must be https and resolve to public addresses; it is checked again at every delivery. At most 10 endpoints (409).
     *
     * @tags Monitoring
     * @name CreateWebhookEndpoint
     * @summary Add a webhook endpoint (its signing secret is shown this once)
     * @request POST:/api/v1/webhooks
     * @secure
     */
    createWebhookEndpoint: (
      data: WebhookEndpointCreate,
      params: RequestParams = {},
    ) =>
      this.request<
        WebhookEndpointWithSecret,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/webhooks`,
        method: "POST",
        body: data,
        secure: true,
        type: "application/json",
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags Monitoring
     * @name ListWebhookEndpoints
     * @summary The account's webhook endpoints
     * @request GET:/api/v1/webhooks
     * @secure
     */
    listWebhookEndpoints: (params: RequestParams = {}) =>
      this.request<
        WebhookEndpointList,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/webhooks`,
        method: "GET",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags Monitoring
     * @name GetWebhookEndpoint
     * @summary One webhook endpoint
     * @request GET:/api/v1/webhooks/{id}
     * @secure
     */
    getWebhookEndpoint: (id: string, params: RequestParams = {}) =>
      this.request<
        WebhookEndpoint,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/webhooks/${id}`,
        method: "GET",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description A disabled endpoint is sent nothing, and events published meanwhile are not queued for it; its pending deliveries wait, and go when it is enabled again.
     *
     * @tags Monitoring
     * @name UpdateWebhookEndpoint
     * @summary Change, disable or enable a webhook endpoint
     * @request PATCH:/api/v1/webhooks/{id}
     * @secure
     */
    updateWebhookEndpoint: (
      id: string,
      data: WebhookEndpointUpdate,
      params: RequestParams = {},
    ) =>
      this.request<
        WebhookEndpoint,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/webhooks/${id}`,
        method: "PATCH",
        body: data,
        secure: true,
        type: "application/json",
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags Monitoring
     * @name DeleteWebhookEndpoint
     * @summary Delete a webhook endpoint and its delivery log
     * @request DELETE:/api/v1/webhooks/{id}
     * @secure
     */
    deleteWebhookEndpoint: (id: string, params: RequestParams = {}) =>
      this.request<
        WebhookEndpointDeleted,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/webhooks/${id}`,
        method: "DELETE",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags Monitoring
     * @name RotateWebhookSecret
     * @summary A new signing secret (shown this once); the previous one signs too for 24 hours
     * @request POST:/api/v1/webhooks/{id}/rotate-secret
     * @secure
     */
    rotateWebhookSecret: (id: string, params: RequestParams = {}) =>
      this.request<
        WebhookEndpointWithSecret,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/webhooks/${id}/rotate-secret`,
        method: "POST",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags Monitoring
     * @name ListWebhookDeliveries
     * @summary An endpoint's delivery log, newest first (kept 30 days)
     * @request GET:/api/v1/webhooks/{id}/deliveries
     * @secure
     */
    listWebhookDeliveries: (
      id: string,
      query?: {
        status?: "pending" | "succeeded" | "failed";
        /**
         * Page number, from 1
         * @min 1
         * @default 1
         */
        page?: number;
        /**
         * Deliveries per page, 1 to 100
         * @min 1
         * @max 100
         * @default 25
         */
        per_page?: number;
      },
      params: RequestParams = {},
    ) =>
      this.request<
        WebhookDeliveryPage,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/webhooks/${id}/deliveries`,
        method: "GET",
        query: query,
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags Monitoring
     * @name RedeliverWebhook
     * @summary Send a delivery again now (same webhook-id), with the whole retry schedule ahead of it
     * @request POST:/api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver
     * @secure
     */
    redeliverWebhook: (
      id: string,
      deliveryId: string,
      params: RequestParams = {},
    ) =>
      this.request<
        WebhookDelivery,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/webhooks/${id}/deliveries/${deliveryId}/redeliver`,
        method: "POST",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description One record per licence a verify or batch call answered, committed before the answer was sent. Filters combine with AND; pages follow `meta.next_cursor`. Records are kept as long as the plan in force when they were made keeps them (free 90 days, starter 732 days, growth 1830 days, enterprise 2562 days). Not metered.
     *
     * @tags Verifications
     * @name ListVerifications
     * @summary The account's verification records, newest first
     * @request GET:/api/v1/verifications
     * @secure
     */
    listVerifications: (
      query?: {
        /**
         * Records made at or after this moment (a date: from its start, UTC): a date (YYYY-MM-DD) or an RFC 3339 date-time with its offset, on a day from 1900-01-01 to 2999-12-31
         * @pattern ^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$
         */
        from?: string;
        /**
         * Records made before this moment (a date: through its end, UTC): a date (YYYY-MM-DD) or an RFC 3339 date-time with its offset, on a day from 1900-01-01 to 2999-12-31
         * @pattern ^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$
         */
        to?: string;
        /**
         * Two-letter code of a U.S. jurisdiction: AL, AK, AZ, AR, CA, CO, CT, DE, DC, FL, GA, HI, ID, IL, IN, IA, KS, KY, LA, ME, MD, MA, MI, MN, MS, MO, MT, NE, NV, NH, NJ, NM, NY, NC, ND, OH, OK, OR, PA, RI, SC, SD, TN, TX, UT, VT, VA, WA, WV, WI, WY, PR, VI, GU, AS, MP. Lower case is accepted too (tx is TX); answers give it in upper case
         * @example "TX"
         */
        state?:
          | "AL"
          | "AK"
          | "AZ"
          | "AR"
          | "CA"
          | "CO"
          | "CT"
          | "DE"
          | "DC"
          | "FL"
          | "GA"
          | "HI"
          | "ID"
          | "IL"
          | "IN"
          | "IA"
          | "KS"
          | "KY"
          | "LA"
          | "ME"
          | "MD"
          | "MA"
          | "MI"
          | "MN"
          | "MS"
          | "MO"
          | "MT"
          | "NE"
          | "NV"
          | "NH"
          | "NJ"
          | "NM"
          | "NY"
          | "NC"
          | "ND"
          | "OH"
          | "OK"
          | "OR"
          | "PA"
          | "RI"
          | "SC"
          | "SD"
          | "TN"
          | "TX"
          | "UT"
          | "VT"
          | "VA"
          | "WA"
          | "WV"
          | "WI"
          | "WY"
          | "PR"
          | "VI"
          | "GU"
          | "AS"
          | "MP";
        /**
         * Licence number as published; case and spacing are ignored (`763827-sa` finds `763827-SA`)
         * @minLength 1
         * @maxLength 128
         * @example "406526-SA"
         */
        license_number?: string;
        /**
         * Only these verdicts (comma-separated: clear, consider, not_found)
         * @pattern ^(clear|consider|not_found)(,(clear|consider|not_found))*$
         * @example "consider,not_found"
         */
        verdict?: string;
        /** Only records with a review (true), or without one (false): `verdict=consider&reviewed=false` is what waits for a person */
        reviewed?: boolean;
        /**
         * From the previous page's meta.next_cursor
         * @maxLength 200
         */
        cursor?: string;
        /**
         * Records per page, 1 to 100
         * @min 1
         * @max 100
         * @default 25
         */
        per_page?: number;
        /**
         * newest first (the default), or oldest first (a review queue)
         * @default "newest"
         */
        order?: "newest" | "oldest";
      },
      params: RequestParams = {},
    ) =>
      this.request<
        VerificationPage,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/verifications`,
        method: "GET",
        query: query,
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description Columns: id, created_at, key_id, operation, index, state, license_number, name_sent, verified, verdict, reasons, name_match_result, name_match_score, name_compared_with, license_status, expiration_date, source_id, snapshot_date, last_verified, matcher_version, http_status, body_sha256, reviews, review_decision, review_reason, reviewed_by, reviewed_at. Not metered.
     *
     * @tags Verifications
     * @name ExportVerifications
     * @summary Every record matching the filters as CSV, newest first (streamed)
     * @request GET:/api/v1/verifications.csv
     * @secure
     */
    exportVerifications: (
      query?: {
        /**
         * Records made at or after this moment (a date: from its start, UTC): a date (YYYY-MM-DD) or an RFC 3339 date-time with its offset, on a day from 1900-01-01 to 2999-12-31
         * @pattern ^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$
         */
        from?: string;
        /**
         * Records made before this moment (a date: through its end, UTC): a date (YYYY-MM-DD) or an RFC 3339 date-time with its offset, on a day from 1900-01-01 to 2999-12-31
         * @pattern ^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$
         */
        to?: string;
        /**
         * Two-letter code of a U.S. jurisdiction: AL, AK, AZ, AR, CA, CO, CT, DE, DC, FL, GA, HI, ID, IL, IN, IA, KS, KY, LA, ME, MD, MA, MI, MN, MS, MO, MT, NE, NV, NH, NJ, NM, NY, NC, ND, OH, OK, OR, PA, RI, SC, SD, TN, TX, UT, VT, VA, WA, WV, WI, WY, PR, VI, GU, AS, MP. Lower case is accepted too (tx is TX); answers give it in upper case
         * @example "TX"
         */
        state?:
          | "AL"
          | "AK"
          | "AZ"
          | "AR"
          | "CA"
          | "CO"
          | "CT"
          | "DE"
          | "DC"
          | "FL"
          | "GA"
          | "HI"
          | "ID"
          | "IL"
          | "IN"
          | "IA"
          | "KS"
          | "KY"
          | "LA"
          | "ME"
          | "MD"
          | "MA"
          | "MI"
          | "MN"
          | "MS"
          | "MO"
          | "MT"
          | "NE"
          | "NV"
          | "NH"
          | "NJ"
          | "NM"
          | "NY"
          | "NC"
          | "ND"
          | "OH"
          | "OK"
          | "OR"
          | "PA"
          | "RI"
          | "SC"
          | "SD"
          | "TN"
          | "TX"
          | "UT"
          | "VT"
          | "VA"
          | "WA"
          | "WV"
          | "WI"
          | "WY"
          | "PR"
          | "VI"
          | "GU"
          | "AS"
          | "MP";
        /**
         * Licence number as published; case and spacing are ignored (`763827-sa` finds `763827-SA`)
         * @minLength 1
         * @maxLength 128
         * @example "406526-SA"
         */
        license_number?: string;
        /**
         * Only these verdicts (comma-separated: clear, consider, not_found)
         * @pattern ^(clear|consider|not_found)(,(clear|consider|not_found))*$
         * @example "consider,not_found"
         */
        verdict?: string;
        /** Only records with a review (true), or without one (false): `verdict=consider&reviewed=false` is what waits for a person */
        reviewed?: boolean;
      },
      params: RequestParams = {},
    ) =>
      this.request<
        string,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/verifications.csv`,
        method: "GET",
        query: query,
        secure: true,
        ...params,
      }),

    /**
     * @description Not metered.
     *
     * @tags Verifications
     * @name GetVerification
     * @summary One verification record (the `Verification-Id` an answer carried)
     * @request GET:/api/v1/verifications/{id}
     * @secure
     */
    getVerification: (id: string, params: RequestParams = {}) =>
      this.request<
        VerificationResponse,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/verifications/${id}`,
        method: "GET",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description Signed the first time it is asked for and kept as long as the record (signed again if its key is later marked compromised). Anyone verifies it with the keys at /.well-known/jwks.json and any JOSE library, without asking this service (docs/verdicts.md). Not metered.
     *
     * @tags Verifications
     * @name GetVerificationReceipt
     * @summary A record's signed receipt (compact JWS, Ed25519)
     * @request GET:/api/v1/verifications/{id}/receipt
     * @secure
     */
    getVerificationReceipt: (id: string, params: RequestParams = {}) =>
      this.request<
        VerificationReceiptResponse,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/verifications/${id}/receipt`,
        method: "GET",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description Prints the record, its reviews, and its receipt whole (kid, signature, URL as a line and a QR code, the JWS), signing it if it never was. Not metered.
     *
     * @tags Verifications
     * @name GetVerificationCertificatePdf
     * @summary A record as a PDF certificate: what was asked and answered, its reviews, and its receipt
     * @request GET:/api/v1/verifications/{id}/certificate.pdf
     * @secure
     */
    getVerificationCertificatePdf: (id: string, params: RequestParams = {}) =>
      this.request<
        Blob,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/verifications/${id}/certificate.pdf`,
        method: "GET",
        secure: true,
        ...params,
      }),

    /**
     * @description The answer itself never changes; a later review is kept beside an earlier one. The reviewer is the API key that sends it, with `reviewer_name` when given. Answers 201 with the review, its own signed receipt, and its `Location`. Not metered.
     *
     * @tags Verifications
     * @name CreateVerificationReview
     * @summary Record a person's decision about an answer (a `consider` most often)
     * @request POST:/api/v1/verifications/{id}/reviews
     * @secure
     */
    createVerificationReview: (
      id: string,
      data: VerificationReviewInput,
      params: RequestParams = {},
    ) =>
      this.request<
        VerificationReviewResponse,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/verifications/${id}/reviews`,
        method: "POST",
        body: data,
        secure: true,
        type: "application/json",
        format: "json",
        ...params,
      }),

    /**
     * @description Not metered.
     *
     * @tags Verifications
     * @name ListVerificationReviews
     * @summary A record's reviews, oldest first
     * @request GET:/api/v1/verifications/{id}/reviews
     * @secure
     */
    listVerificationReviews: (id: string, params: RequestParams = {}) =>
      this.request<
        VerificationReviewList,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/verifications/${id}/reviews`,
        method: "GET",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description Not metered.
     *
     * @tags Verifications
     * @name GetVerificationReview
     * @summary One review
     * @request GET:/api/v1/verifications/{id}/reviews/{review_id}
     * @secure
     */
    getVerificationReview: (
      id: string,
      reviewId: string,
      params: RequestParams = {},
    ) =>
      this.request<
        VerificationReviewResponse,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/verifications/${id}/reviews/${reviewId}`,
        method: "GET",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description The roster is JSON (`rows`, each a batch item) or CSV (`Content-Type: text/csv`: a header naming `state` and `license_number` (also `license`, `license #`, `lic_no`, `licence number`...) and optionally `name`, or `first_name` and `last_name`; other columns are ignored; `watch` and `label` as query parameters). A roster with any row that cannot be verified is refused whole (422): the first `detail` item counts the rows at fault, the next list the first 100 problems by CSV line (`["body", "line", 7, "state"]`) or row (`["body", "rows", 6, "state"]`). Answers 202 with the job and its `Location`; poll it, or subscribe a webhook endpoint to `verification_job.completed`. Metering: one unit per 100 rows started, charged as the job runs; a job that runs out of quota stops (`failed`, `quota_exhausted`) with the rows done kept. Each row is recorded in the verification log. `Idempotency-Key`: a retry with the same key (per account, 24 hours) gets the same job (`Idempotent-Replayed: true`); the key with another roster is a 422, and while the first upload with it is still being stored, a 409.
     *
     * @tags Verification jobs
     * @name CreateVerificationJob
     * @summary Verify a roster of up to 100,000 licences in the background (paid plans)
     * @request POST:/api/v1/verification-jobs
     * @secure
     */
    createVerificationJob: (
      data: VerificationJobRequest,
      query?: {
        /** CSV uploads: as `watch` in the JSON form */
        watch?: boolean;
        /**
         * CSV uploads: as `label` in the JSON form
         * @minLength 1
         * @maxLength 200
         */
        label?: string;
      },
      params: RequestParams = {},
    ) =>
      this.request<
        VerificationJobResponse,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/verification-jobs`,
        method: "POST",
        query: query,
        body: data,
        secure: true,
        type: "application/json",
        format: "json",
        ...params,
      }),

    /**
     * @description Finished jobs and their results are kept 30 days after they stop. Not metered.
     *
     * @tags Verification jobs
     * @name ListVerificationJobs
     * @summary The account's verification jobs, newest first
     * @request GET:/api/v1/verification-jobs
     * @secure
     */
    listVerificationJobs: (
      query?: {
        /**
         * meta.next_cursor of the previous page
         * @maxLength 200
         */
        cursor?: string;
        /**
         * Jobs per page, 1 to 100
         * @min 1
         * @max 100
         * @default 25
         */
        per_page?: number;
      },
      params: RequestParams = {},
    ) =>
      this.request<
        VerificationJobPage,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/verification-jobs`,
        method: "GET",
        query: query,
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description Not metered.
     *
     * @tags Verification jobs
     * @name GetVerificationJob
     * @summary A job: its status, progress and counts by verdict
     * @request GET:/api/v1/verification-jobs/{id}
     * @secure
     */
    getVerificationJob: (id: string, params: RequestParams = {}) =>
      this.request<
        VerificationJobResponse,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/verification-jobs/${id}`,
        method: "GET",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description The rows done stay (and were charged); the rest are not verified. A job that stopped already is a 409. Not metered.
     *
     * @tags Verification jobs
     * @name CancelVerificationJob
     * @summary Cancel a job that has not finished
     * @request DELETE:/api/v1/verification-jobs/{id}
     * @secure
     */
    cancelVerificationJob: (id: string, params: RequestParams = {}) =>
      this.request<
        VerificationJobResponse,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/verification-jobs/${id}`,
        method: "DELETE",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description Each row holds what a batch item holds, with its `row`, its verification record and, with `watch`, whether it is watched. Not metered.
     *
     * @tags Verification jobs
     * @name ListVerificationJobResults
     * @summary A job's results in roster order, as they are done
     * @request GET:/api/v1/verification-jobs/{id}/results
     * @secure
     */
    listVerificationJobResults: (
      id: string,
      query?: {
        /**
         * Only rows with these verdicts (comma-separated)
         * @pattern ^(clear|consider|not_found)(,(clear|consider|not_found))*$
         * @example "consider,not_found"
         */
        verdict?: string;
        /** over_limit: only the found rows the full watchlist left off */
        watchlist?: "over_limit";
        /**
         * meta.next_cursor of the previous page
         * @maxLength 200
         */
        cursor?: string;
        /**
         * Rows per page, 1 to 100
         * @min 1
         * @max 100
         * @default 50
         */
        per_page?: number;
      },
      params: RequestParams = {},
    ) =>
      this.request<
        VerificationJobResultPage,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/verification-jobs/${id}/results`,
        method: "GET",
        query: query,
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description Columns: row, state, license_number, name_sent, verified, verdict, reasons, name_match_result, name_match_score, name_compared_with, full_name, business_name, license_type, license_status, expiration_date, source_id, snapshot_date, stale, verification_id, watchlist. Not metered.
     *
     * @tags Verification jobs
     * @name ExportVerificationJobResults
     * @summary Every result of a job as CSV, in roster order (streamed)
     * @request GET:/api/v1/verification-jobs/{id}/results.csv
     * @secure
     */
    exportVerificationJobResults: (
      id: string,
      query?: {
        /**
         * Only rows with these verdicts (comma-separated)
         * @pattern ^(clear|consider|not_found)(,(clear|consider|not_found))*$
         * @example "consider,not_found"
         */
        verdict?: string;
        /** over_limit: only the found rows the full watchlist left off */
        watchlist?: "over_limit";
      },
      params: RequestParams = {},
    ) =>
      this.request<
        string,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/verification-jobs/${id}/results.csv`,
        method: "GET",
        query: query,
        secure: true,
        ...params,
      }),

    /**
     * @description Signed when the job finishes (or at the first ask) and kept with the job: the same receipt every time. Its payload carries the job and the SHA-256 of its results' lines; check it with /.well-known/jwks.json (docs/verdicts.md). 409 while the job runs. Each row's own receipt is at its verification record. Not metered.
     *
     * @tags Verification jobs
     * @name GetVerificationJobReceipt
     * @summary A finished job's receipt: a compact JWS (Ed25519) over the job and every result
     * @request GET:/api/v1/verification-jobs/{id}/receipt
     * @secure
     */
    getVerificationJobReceipt: (id: string, params: RequestParams = {}) =>
      this.request<
        VerificationJobReceiptResponse,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/verification-jobs/${id}/receipt`,
        method: "GET",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description The job's receipt (compact JWS, Ed25519; GET .../receipt), over the job and the SHA-256 of its results' lines, printed whole to check with /.well-known/jwks.json (docs/verdicts.md). Each row's own receipt is at its verification record. Streamed; not metered.
     *
     * @tags Verification jobs
     * @name GetVerificationJobSummaryPdf
     * @summary A job's summary as a PDF: the job, every result in roster order, and a signed receipt
     * @request GET:/api/v1/verification-jobs/{id}/summary.pdf
     * @secure
     */
    getVerificationJobSummaryPdf: (id: string, params: RequestParams = {}) =>
      this.request<
        Blob,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/verification-jobs/${id}/summary.pdf`,
        method: "GET",
        secure: true,
        ...params,
      }),

    /**
     * @description Every change a state refresh detected: a licence added, its status, expiration date or name changed, leaving or returning to the source, a supervision starting or ending; a state's first load is one `state_loaded` event. Your feed also holds the alerts derived for your account from your watchlist (`supervisor_status_changed`, `supervision_gap_opened`, `designated_broker_changed`), which no other account sees. Page with `cursor` (the previous page's `next_cursor`); start with `since` (a date). Events are kept 400 days: an older cursor is 410.
     *
     * @tags Licensees
     * @name ListLicenseeChanges
     * @summary Change feed: what refreshes changed, oldest first
     * @request GET:/api/v1/licensees/changes
     * @secure
     */
    listLicenseeChanges: (
      query?: {
        /**
         * The `next_cursor` of the previous page (not with `since`)
         * @minLength 1
         * @maxLength 64
         */
        cursor?: string;
        /**
         * First call only, never with `cursor` (a 422): events detected on or after this day (UTC)
         * @format date
         * @pattern ^\d{4}-\d{2}-\d{2}$
         * @example "2024-06-30"
         */
        since?: string;
        /**
         * Two-letter code of a U.S. jurisdiction: AL, AK, AZ, AR, CA, CO, CT, DE, DC, FL, GA, HI, ID, IL, IN, IA, KS, KY, LA, ME, MD, MA, MI, MN, MS, MO, MT, NE, NV, NH, NJ, NM, NY, NC, ND, OH, OK, OR, PA, RI, SC, SD, TN, TX, UT, VT, VA, WA, WV, WI, WY, PR, VI, GU, AS, MP. Lower case is accepted too (tx is TX); answers give it in upper case
         * @example "TX"
         */
        state?:
          | "AL"
          | "AK"
          | "AZ"
          | "AR"
          | "CA"
          | "CO"
          | "CT"
          | "DE"
          | "DC"
          | "FL"
          | "GA"
          | "HI"
          | "ID"
          | "IL"
          | "IN"
          | "IA"
          | "KS"
          | "KY"
          | "LA"
          | "ME"
          | "MD"
          | "MA"
          | "MI"
          | "MN"
          | "MS"
          | "MO"
          | "MT"
          | "NE"
          | "NV"
          | "NH"
          | "NJ"
          | "NM"
          | "NY"
          | "NC"
          | "ND"
          | "OH"
          | "OK"
          | "OR"
          | "PA"
          | "RI"
          | "SC"
          | "SD"
          | "TN"
          | "TX"
          | "UT"
          | "VT"
          | "VA"
          | "WA"
          | "WV"
          | "WI"
          | "WY"
          | "PR"
          | "VI"
          | "GU"
          | "AS"
          | "MP";
        /** Comma-separated event types: license_added, status_changed, expiration_changed, name_changed, left_source, returned_to_source, supervision_started, supervision_ended, supervision_transferred, roster_moved, state_loaded, supervisor_status_changed, supervision_gap_opened, designated_broker_changed, license_expiring, renewed_after_lapse. `licence_added`, the old name of `license_added`, is accepted until 2027-06-30. */
        types?: string;
        /**
         * Events per page, 1 to 1,000
         * @min 1
         * @max 1000
         * @default 100
         */
        limit?: number;
      },
      params: RequestParams = {},
    ) =>
      this.request<
        ChangeFeed,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/licensees/changes`,
        method: "GET",
        query: query,
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description Deprecated: use GET /api/v1/licensees. Give `first_name`, `last_name` or both: with neither, 422. Without `state` every jurisdiction is searched, ordered by state first.
     *
     * @tags Legacy
     * @name LegacySearchLicensees
     * @summary Legacy search by first and last name
     * @request GET:/api/v1/licensees/search
     * @deprecated
     * @secure
     */
    legacySearchLicensees: (
      query?: {
        /**
         * Substring of the first name; this or last_name (or both) is required
         * @maxLength 200
         * @example "Laura"
         */
        first_name?: string;
        /**
         * Substring of the last name; this or first_name (or both) is required
         * @maxLength 200
         * @example "Harris"
         */
        last_name?: string;
        /**
         * Two-letter state code; all jurisdictions when absent
         * @example "TX"
         */
        state?:
          | "AL"
          | "AK"
          | "AZ"
          | "AR"
          | "CA"
          | "CO"
          | "CT"
          | "DE"
          | "DC"
          | "FL"
          | "GA"
          | "HI"
          | "ID"
          | "IL"
          | "IN"
          | "IA"
          | "KS"
          | "KY"
          | "LA"
          | "ME"
          | "MD"
          | "MA"
          | "MI"
          | "MN"
          | "MS"
          | "MO"
          | "MT"
          | "NE"
          | "NV"
          | "NH"
          | "NJ"
          | "NM"
          | "NY"
          | "NC"
          | "ND"
          | "OH"
          | "OK"
          | "OR"
          | "PA"
          | "RI"
          | "SC"
          | "SD"
          | "TN"
          | "TX"
          | "UT"
          | "VT"
          | "VA"
          | "WA"
          | "WV"
          | "WI"
          | "WY"
          | "PR"
          | "VI"
          | "GU"
          | "AS"
          | "MP";
        /**
         * Page number, from 1
         * @min 1
         * @default 1
         */
        page?: number;
        /**
         * Items per page, 1 to 100
         * @min 1
         * @max 100
         * @default 25
         */
        per_page?: number;
      },
      params: RequestParams = {},
    ) =>
      this.request<
        LicenseeList,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/licensees/search`,
        method: "GET",
        query: query,
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description Deprecated: use /supervisors, which lists every open relationship. `data` is null when none is on file.
     *
     * @tags Legacy
     * @name LegacyGetSupervisor
     * @summary Legacy: the single current supervisor
     * @request GET:/api/v1/licensees/{state}/{license_number}/supervisor
     * @deprecated
     * @secure
     */
    legacyGetSupervisor: (
      state:
        | "AL"
        | "AK"
        | "AZ"
        | "AR"
        | "CA"
        | "CO"
        | "CT"
        | "DE"
        | "DC"
        | "FL"
        | "GA"
        | "HI"
        | "ID"
        | "IL"
        | "IN"
        | "IA"
        | "KS"
        | "KY"
        | "LA"
        | "ME"
        | "MD"
        | "MA"
        | "MI"
        | "MN"
        | "MS"
        | "MO"
        | "MT"
        | "NE"
        | "NV"
        | "NH"
        | "NJ"
        | "NM"
        | "NY"
        | "NC"
        | "ND"
        | "OH"
        | "OK"
        | "OR"
        | "PA"
        | "RI"
        | "SC"
        | "SD"
        | "TN"
        | "TX"
        | "UT"
        | "VT"
        | "VA"
        | "WA"
        | "WV"
        | "WI"
        | "WY"
        | "PR"
        | "VI"
        | "GU"
        | "AS"
        | "MP",
      licenseNumber: string,
      params: RequestParams = {},
    ) =>
      this.request<
        LegacySupervisor,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/licensees/${state}/${licenseNumber}/supervisor`,
        method: "GET",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description Deprecated: use GET /api/v1/licensees. Same order and paging as the canonical search.
     *
     * @tags Legacy
     * @name SearchLicenses
     * @summary Lower-level search returning the raw normalized licence shape
     * @request GET:/api/v1/licenses/search
     * @deprecated
     * @secure
     */
    searchLicenses: (
      query: {
        /**
         * Two-letter code of a U.S. jurisdiction: AL, AK, AZ, AR, CA, CO, CT, DE, DC, FL, GA, HI, ID, IL, IN, IA, KS, KY, LA, ME, MD, MA, MI, MN, MS, MO, MT, NE, NV, NH, NJ, NM, NY, NC, ND, OH, OK, OR, PA, RI, SC, SD, TN, TX, UT, VT, VA, WA, WV, WI, WY, PR, VI, GU, AS, MP. Lower case is accepted too (tx is TX); answers give it in upper case
         * @example "TX"
         */
        state:
          | "AL"
          | "AK"
          | "AZ"
          | "AR"
          | "CA"
          | "CO"
          | "CT"
          | "DE"
          | "DC"
          | "FL"
          | "GA"
          | "HI"
          | "ID"
          | "IL"
          | "IN"
          | "IA"
          | "KS"
          | "KY"
          | "LA"
          | "ME"
          | "MD"
          | "MA"
          | "MI"
          | "MN"
          | "MS"
          | "MO"
          | "MT"
          | "NE"
          | "NV"
          | "NH"
          | "NJ"
          | "NM"
          | "NY"
          | "NC"
          | "ND"
          | "OH"
          | "OK"
          | "OR"
          | "PA"
          | "RI"
          | "SC"
          | "SD"
          | "TN"
          | "TX"
          | "UT"
          | "VT"
          | "VA"
          | "WA"
          | "WV"
          | "WI"
          | "WY"
          | "PR"
          | "VI"
          | "GU"
          | "AS"
          | "MP";
        /**
         * Every term must appear in the full, first, last or business name
         * @maxLength 200
         */
        name?: string;
        /**
         * Prefix of the canonical licence number
         * @maxLength 128
         */
        license_number?: string;
        /** Normalized status filter, in any letter case */
        status?: StatusFilter;
        /** Normalized licence type, in any letter case */
        license_type?: LicenseTypeFilter;
        /**
         * Page number, from 1
         * @min 1
         * @default 1
         */
        page?: number;
        /**
         * Items per page, 1 to 100
         * @min 1
         * @max 100
         * @default 25
         */
        per_page?: number;
      },
      params: RequestParams = {},
    ) =>
      this.request<
        RawLicenseList,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/licenses/search`,
        method: "GET",
        query: query,
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags Legacy
     * @name CountLicensesByType
     * @summary Credential counts by state and normalized licence type
     * @request GET:/api/v1/licenses/license-type-counts
     * @secure
     */
    countLicensesByType: (
      query?: {
        /**
         * One state; every jurisdiction on file when absent
         * @example "TX"
         */
        state?:
          | "AL"
          | "AK"
          | "AZ"
          | "AR"
          | "CA"
          | "CO"
          | "CT"
          | "DE"
          | "DC"
          | "FL"
          | "GA"
          | "HI"
          | "ID"
          | "IL"
          | "IN"
          | "IA"
          | "KS"
          | "KY"
          | "LA"
          | "ME"
          | "MD"
          | "MA"
          | "MI"
          | "MN"
          | "MS"
          | "MO"
          | "MT"
          | "NE"
          | "NV"
          | "NH"
          | "NJ"
          | "NM"
          | "NY"
          | "NC"
          | "ND"
          | "OH"
          | "OK"
          | "OR"
          | "PA"
          | "RI"
          | "SC"
          | "SD"
          | "TN"
          | "TX"
          | "UT"
          | "VT"
          | "VA"
          | "WA"
          | "WV"
          | "WI"
          | "WY"
          | "PR"
          | "VI"
          | "GU"
          | "AS"
          | "MP";
      },
      params: RequestParams = {},
    ) =>
      this.request<
        LicenseTypeCounts,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/licenses/license-type-counts`,
        method: "GET",
        query: query,
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description Deprecated: use GET /api/v1/licensees/{state}/{license_number}.
     *
     * @tags Legacy
     * @name GetLicense
     * @summary Lower-level lookup returning the raw normalized licence shape
     * @request GET:/api/v1/licenses/{state}/{license_number}
     * @deprecated
     * @secure
     */
    getLicense: (
      state:
        | "AL"
        | "AK"
        | "AZ"
        | "AR"
        | "CA"
        | "CO"
        | "CT"
        | "DE"
        | "DC"
        | "FL"
        | "GA"
        | "HI"
        | "ID"
        | "IL"
        | "IN"
        | "IA"
        | "KS"
        | "KY"
        | "LA"
        | "ME"
        | "MD"
        | "MA"
        | "MI"
        | "MN"
        | "MS"
        | "MO"
        | "MT"
        | "NE"
        | "NV"
        | "NH"
        | "NJ"
        | "NM"
        | "NY"
        | "NC"
        | "ND"
        | "OH"
        | "OK"
        | "OR"
        | "PA"
        | "RI"
        | "SC"
        | "SD"
        | "TN"
        | "TX"
        | "UT"
        | "VT"
        | "VA"
        | "WA"
        | "WV"
        | "WI"
        | "WY"
        | "PR"
        | "VI"
        | "GU"
        | "AS"
        | "MP",
      licenseNumber: string,
      params: RequestParams = {},
    ) =>
      this.request<
        RawLicenseResponse,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/licenses/${state}/${licenseNumber}`,
        method: "GET",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description Filters combine with AND. Text filters are case- and accent-insensitive substring matches; every whitespace-separated term must match. Results are ordered by last name (or business name), first name, middle name, then licence number; `meta.total` is exact and pages never overlap. A page past the end is 200 with empty `data`.
     *
     * @tags Licensees
     * @name SearchLicensees
     * @summary Search licensees within one state
     * @request GET:/api/v1/licensees
     * @secure
     */
    searchLicensees: (
      query: {
        /**
         * Two-letter code of a U.S. jurisdiction: AL, AK, AZ, AR, CA, CO, CT, DE, DC, FL, GA, HI, ID, IL, IN, IA, KS, KY, LA, ME, MD, MA, MI, MN, MS, MO, MT, NE, NV, NH, NJ, NM, NY, NC, ND, OH, OK, OR, PA, RI, SC, SD, TN, TX, UT, VT, VA, WA, WV, WI, WY, PR, VI, GU, AS, MP. Lower case is accepted too (tx is TX); answers give it in upper case
         * @example "TX"
         */
        state:
          | "AL"
          | "AK"
          | "AZ"
          | "AR"
          | "CA"
          | "CO"
          | "CT"
          | "DE"
          | "DC"
          | "FL"
          | "GA"
          | "HI"
          | "ID"
          | "IL"
          | "IN"
          | "IA"
          | "KS"
          | "KY"
          | "LA"
          | "ME"
          | "MD"
          | "MA"
          | "MI"
          | "MN"
          | "MS"
          | "MO"
          | "MT"
          | "NE"
          | "NV"
          | "NH"
          | "NJ"
          | "NM"
          | "NY"
          | "NC"
          | "ND"
          | "OH"
          | "OK"
          | "OR"
          | "PA"
          | "RI"
          | "SC"
          | "SD"
          | "TN"
          | "TX"
          | "UT"
          | "VT"
          | "VA"
          | "WA"
          | "WV"
          | "WI"
          | "WY"
          | "PR"
          | "VI"
          | "GU"
          | "AS"
          | "MP";
        /**
         * Every whitespace-separated term must appear (case- and accent-insensitive) in the full, first, last or business name
         * @maxLength 200
         */
        name?: string;
        /**
         * Substring of the first name (case- and accent-insensitive; every term must match)
         * @maxLength 200
         */
        first_name?: string;
        /**
         * Substring of the last name
         * @maxLength 200
         */
        last_name?: string;
        /**
         * Substring of the business name
         * @maxLength 200
         */
        business_name?: string;
        /** Normalized status filter, in any letter case */
        status?: StatusFilter;
        /** Normalized licence type, in any letter case */
        license_type?: LicenseTypeFilter;
        /**
         * Every term must appear in the name of a current brokerage (verified supervisor or business-name context)
         * @maxLength 200
         */
        brokerage?: string;
        /**
         * Substring of the city
         * @maxLength 200
         */
        city?: string;
        /**
         * Page number, from 1
         * @min 1
         * @default 1
         */
        page?: number;
        /**
         * Items per page, 1 to 100
         * @min 1
         * @max 100
         * @default 25
         */
        per_page?: number;
      },
      params: RequestParams = {},
    ) =>
      this.request<
        LicenseeList,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/licensees`,
        method: "GET",
        query: query,
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description `verified` is true when a licence with that state and number is on file, whatever its status (`licensee.status` says whether it is active). A miss is 200 with `verified: false` and `licensee: null`. `verdict` and `reasons` say what to make of it (docs/verdicts.md); with `name` (or `first_name` and `last_name`), `name_match` says whether the holder is who was named. Each answer is recorded in the account's verification log (`Verification-Id`).
     *
     * @tags Licensees
     * @name VerifyLicense
     * @summary Verify one licence by state and licence number
     * @request GET:/api/v1/licensees/verify
     * @secure
     */
    verifyLicense: (
      query: {
        /**
         * Two-letter code of a U.S. jurisdiction: AL, AK, AZ, AR, CA, CO, CT, DE, DC, FL, GA, HI, ID, IL, IN, IA, KS, KY, LA, ME, MD, MA, MI, MN, MS, MO, MT, NE, NV, NH, NJ, NM, NY, NC, ND, OH, OK, OR, PA, RI, SC, SD, TN, TX, UT, VT, VA, WA, WV, WI, WY, PR, VI, GU, AS, MP. Lower case is accepted too (tx is TX); answers give it in upper case
         * @example "TX"
         */
        state:
          | "AL"
          | "AK"
          | "AZ"
          | "AR"
          | "CA"
          | "CO"
          | "CT"
          | "DE"
          | "DC"
          | "FL"
          | "GA"
          | "HI"
          | "ID"
          | "IL"
          | "IN"
          | "IA"
          | "KS"
          | "KY"
          | "LA"
          | "ME"
          | "MD"
          | "MA"
          | "MI"
          | "MN"
          | "MS"
          | "MO"
          | "MT"
          | "NE"
          | "NV"
          | "NH"
          | "NJ"
          | "NM"
          | "NY"
          | "NC"
          | "ND"
          | "OH"
          | "OK"
          | "OR"
          | "PA"
          | "RI"
          | "SC"
          | "SD"
          | "TN"
          | "TX"
          | "UT"
          | "VT"
          | "VA"
          | "WA"
          | "WV"
          | "WI"
          | "WY"
          | "PR"
          | "VI"
          | "GU"
          | "AS"
          | "MP";
        /**
         * Licence number as published; case and spacing are ignored (`763827-sa` finds `763827-SA`)
         * @minLength 1
         * @maxLength 128
         * @example "406526-SA"
         */
        license_number: string;
        /**
         * The holder's name in any order ("SMITH, JOHN A" or "John A. Smith"), or a firm's business name: adds name_match
         * @minLength 1
         * @maxLength 200
         */
        name?: string;
        /**
         * The holder's given name (with last_name; instead of name)
         * @minLength 1
         * @maxLength 200
         */
        first_name?: string;
        /**
         * The holder's surname (with first_name; instead of name)
         * @minLength 1
         * @maxLength 200
         */
        last_name?: string;
      },
      params: RequestParams = {},
    ) =>
      this.request<
        VerifyResponse,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/licensees/verify`,
        method: "GET",
        query: query,
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description Results come in input order, each echoing `state` and `license_number` exactly as sent and its `index` in the request; misses are inline with `verified: false`. Items take a name as verify does. `verdict=consider,not_found` returns only the results with those verdicts (every item is still verified and recorded). One metered request per call.
     *
     * @tags Licensees
     * @name BatchVerifyLicenses
     * @summary Verify 1 to 100 licences in one call (paid plans)
     * @request POST:/api/v1/licensees/batch
     * @secure
     */
    batchVerifyLicenses: (
      data: BatchVerifyRequest,
      query?: {
        /**
         * Return only results with these verdicts (comma-separated: clear, consider, not_found); each result keeps its `index`
         * @pattern ^(clear|consider|not_found)(,(clear|consider|not_found))*$
         * @example "consider,not_found"
         */
        verdict?: string;
      },
      params: RequestParams = {},
    ) =>
      this.request<
        BatchVerifyResponse,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/licensees/batch`,
        method: "POST",
        query: query,
        body: data,
        secure: true,
        type: "application/json",
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags Licensees
     * @name GetLicensee
     * @summary Read one licensee record
     * @request GET:/api/v1/licensees/{state}/{license_number}
     * @secure
     */
    getLicensee: (
      state:
        | "AL"
        | "AK"
        | "AZ"
        | "AR"
        | "CA"
        | "CO"
        | "CT"
        | "DE"
        | "DC"
        | "FL"
        | "GA"
        | "HI"
        | "ID"
        | "IL"
        | "IN"
        | "IA"
        | "KS"
        | "KY"
        | "LA"
        | "ME"
        | "MD"
        | "MA"
        | "MI"
        | "MN"
        | "MS"
        | "MO"
        | "MT"
        | "NE"
        | "NV"
        | "NH"
        | "NJ"
        | "NM"
        | "NY"
        | "NC"
        | "ND"
        | "OH"
        | "OK"
        | "OR"
        | "PA"
        | "RI"
        | "SC"
        | "SD"
        | "TN"
        | "TX"
        | "UT"
        | "VT"
        | "VA"
        | "WA"
        | "WV"
        | "WI"
        | "WY"
        | "PR"
        | "VI"
        | "GU"
        | "AS"
        | "MP",
      licenseNumber: string,
      params: RequestParams = {},
    ) =>
      this.request<
        LicenseeResponse,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/licensees/${state}/${licenseNumber}`,
        method: "GET",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description A relationship is in force on day d when effective_from <= d < effective_to (open while effective_to is null). Without as_of: the open relationships, or all with include_inactive=true. With as_of: those in force that day, plus those that had ended by then with include_inactive=true. Newest first.
     *
     * @tags Relationships
     * @name ListAffiliations
     * @summary Supervision history of a licence, with effective dates
     * @request GET:/api/v1/licensees/{state}/{license_number}/affiliations
     * @secure
     */
    listAffiliations: (
      state:
        | "AL"
        | "AK"
        | "AZ"
        | "AR"
        | "CA"
        | "CO"
        | "CT"
        | "DE"
        | "DC"
        | "FL"
        | "GA"
        | "HI"
        | "ID"
        | "IL"
        | "IN"
        | "IA"
        | "KS"
        | "KY"
        | "LA"
        | "ME"
        | "MD"
        | "MA"
        | "MI"
        | "MN"
        | "MS"
        | "MO"
        | "MT"
        | "NE"
        | "NV"
        | "NH"
        | "NJ"
        | "NM"
        | "NY"
        | "NC"
        | "ND"
        | "OH"
        | "OK"
        | "OR"
        | "PA"
        | "RI"
        | "SC"
        | "SD"
        | "TN"
        | "TX"
        | "UT"
        | "VT"
        | "VA"
        | "WA"
        | "WV"
        | "WI"
        | "WY"
        | "PR"
        | "VI"
        | "GU"
        | "AS"
        | "MP",
      licenseNumber: string,
      query?: {
        /**
         * Day to answer for: relationships in force on that day (effective_from <= as_of < effective_to); with include_inactive=true also those that had ended by then
         * @format date
         * @pattern ^\d{4}-\d{2}-\d{2}$
         * @example "2024-06-30"
         */
        as_of?: string;
        /**
         * Include relationships that have ended
         * @default false
         */
        include_inactive?: boolean;
        /** Role of the supervised licence in a relationship (filters take it in any letter case) */
        affiliate_role?: AffiliateRole;
        /** Kind of supervision; the edge points from the supervisor to the supervised licence (filters take it in any letter case) */
        relationship_type?: RelationshipType;
      },
      params: RequestParams = {},
    ) =>
      this.request<
        AffiliationHistory,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/licensees/${state}/${licenseNumber}/affiliations`,
        method: "GET",
        query: query,
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description All open supervising relationships; `data` is empty (200) when none are on file.
     *
     * @tags Relationships
     * @name ListSupervisors
     * @summary Current supervisors of a licence
     * @request GET:/api/v1/licensees/{state}/{license_number}/supervisors
     * @secure
     */
    listSupervisors: (
      state:
        | "AL"
        | "AK"
        | "AZ"
        | "AR"
        | "CA"
        | "CO"
        | "CT"
        | "DE"
        | "DC"
        | "FL"
        | "GA"
        | "HI"
        | "ID"
        | "IL"
        | "IN"
        | "IA"
        | "KS"
        | "KY"
        | "LA"
        | "ME"
        | "MD"
        | "MA"
        | "MI"
        | "MN"
        | "MS"
        | "MO"
        | "MT"
        | "NE"
        | "NV"
        | "NH"
        | "NJ"
        | "NM"
        | "NY"
        | "NC"
        | "ND"
        | "OH"
        | "OK"
        | "OR"
        | "PA"
        | "RI"
        | "SC"
        | "SD"
        | "TN"
        | "TX"
        | "UT"
        | "VT"
        | "VA"
        | "WA"
        | "WV"
        | "WI"
        | "WY"
        | "PR"
        | "VI"
        | "GU"
        | "AS"
        | "MP",
      licenseNumber: string,
      query?: {
        /** Role of the supervised licence in a relationship (filters take it in any letter case) */
        affiliate_role?: AffiliateRole;
        /** Kind of supervision; the edge points from the supervisor to the supervised licence (filters take it in any letter case) */
        relationship_type?: RelationshipType;
      },
      params: RequestParams = {},
    ) =>
      this.request<
        SupervisorList,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/licensees/${state}/${licenseNumber}/supervisors`,
        method: "GET",
        query: query,
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description Paged, ordered like search results, with an exact total.
     *
     * @tags Relationships
     * @name ListAffiliates
     * @summary Current affiliates of a supervising licence
     * @request GET:/api/v1/licensees/{state}/{license_number}/affiliates
     * @secure
     */
    listAffiliates: (
      state:
        | "AL"
        | "AK"
        | "AZ"
        | "AR"
        | "CA"
        | "CO"
        | "CT"
        | "DE"
        | "DC"
        | "FL"
        | "GA"
        | "HI"
        | "ID"
        | "IL"
        | "IN"
        | "IA"
        | "KS"
        | "KY"
        | "LA"
        | "ME"
        | "MD"
        | "MA"
        | "MI"
        | "MN"
        | "MS"
        | "MO"
        | "MT"
        | "NE"
        | "NV"
        | "NH"
        | "NJ"
        | "NM"
        | "NY"
        | "NC"
        | "ND"
        | "OH"
        | "OK"
        | "OR"
        | "PA"
        | "RI"
        | "SC"
        | "SD"
        | "TN"
        | "TX"
        | "UT"
        | "VT"
        | "VA"
        | "WA"
        | "WV"
        | "WI"
        | "WY"
        | "PR"
        | "VI"
        | "GU"
        | "AS"
        | "MP",
      licenseNumber: string,
      query?: {
        /** Role of the supervised licence in a relationship (filters take it in any letter case) */
        affiliate_role?: AffiliateRole;
        /** Kind of supervision; the edge points from the supervisor to the supervised licence (filters take it in any letter case) */
        relationship_type?: RelationshipType;
        /**
         * Page number, from 1
         * @min 1
         * @default 1
         */
        page?: number;
        /**
         * Items per page, 1 to 100
         * @min 1
         * @max 100
         * @default 25
         */
        per_page?: number;
      },
      params: RequestParams = {},
    ) =>
      this.request<
        AffiliateList,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/licensees/${state}/${licenseNumber}/affiliates`,
        method: "GET",
        query: query,
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description Per calendar month or ISO week, at most 60 periods: the relationships that began and ended, how many were in force on the period's last day, and the transfers in and out (an affiliate whose relationship of the same type under another supervisor ended at most 90 days before it joined, or began at most 90 days after it left). From the effective dates on file, as the relationships stand today. The counts are whole; each list names one page of its affiliates (`page`, `per_page`: the same page of every list and period), and the CSV names every one.
     *
     * @tags Relationships
     * @name GetRosterHistory
     * @summary A supervising licence's roster over time
     * @request GET:/api/v1/licensees/{state}/{license_number}/roster-history
     * @secure
     */
    getRosterHistory: (
      state:
        | "AL"
        | "AK"
        | "AZ"
        | "AR"
        | "CA"
        | "CO"
        | "CT"
        | "DE"
        | "DC"
        | "FL"
        | "GA"
        | "HI"
        | "ID"
        | "IL"
        | "IN"
        | "IA"
        | "KS"
        | "KY"
        | "LA"
        | "ME"
        | "MD"
        | "MA"
        | "MI"
        | "MN"
        | "MS"
        | "MO"
        | "MT"
        | "NE"
        | "NV"
        | "NH"
        | "NJ"
        | "NM"
        | "NY"
        | "NC"
        | "ND"
        | "OH"
        | "OK"
        | "OR"
        | "PA"
        | "RI"
        | "SC"
        | "SD"
        | "TN"
        | "TX"
        | "UT"
        | "VT"
        | "VA"
        | "WA"
        | "WV"
        | "WI"
        | "WY"
        | "PR"
        | "VI"
        | "GU"
        | "AS"
        | "MP",
      licenseNumber: string,
      query?: {
        /**
         * Calendar months, or ISO weeks (Monday to Sunday)
         * @default "month"
         */
        period?: "month" | "week";
        /**
         * A day in the first period (default: the 12th period back from `to`)
         * @format date
         * @pattern ^\d{4}-\d{2}-\d{2}$
         * @example "2024-06-30"
         */
        from?: string;
        /**
         * A day in the last period (default: today, the service's UTC date)
         * @format date
         * @pattern ^\d{4}-\d{2}-\d{2}$
         * @example "2024-06-30"
         */
        to?: string;
        /** Role of the supervised licence in a relationship (filters take it in any letter case) */
        affiliate_role?: AffiliateRole;
        /** Kind of supervision; the edge points from the supervisor to the supervised licence (filters take it in any letter case) */
        relationship_type?: RelationshipType;
        /**
         * Which page of each period's lists of affiliates who joined and left to name
         * @min 1
         * @default 1
         */
        page?: number;
        /**
         * Affiliates named per list and period, 1 to 100
         * @min 1
         * @max 100
         * @default 10
         */
        per_page?: number;
      },
      params: RequestParams = {},
    ) =>
      this.request<
        RosterHistory,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/licensees/${state}/${licenseNumber}/roster-history`,
        method: "GET",
        query: query,
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description Per calendar month or ISO week, at most 60 periods: the relationships that began and ended, how many were in force on the period's last day, and the transfers in and out (an affiliate whose relationship of the same type under another supervisor ended at most 90 days before it joined, or began at most 90 days after it left). From the effective dates on file, as the relationships stand today. One row per affiliate who joined or left (`change`), with its period and the period's count in force; a period with neither has one row, `change` `none`. Columns: period_start, period_end, in_force_at_period_end, change, license_number, full_name, license_class, relationship_type, affiliate_role, effective_from, effective_to, transfer_supervisor_license_number, transfer_supervisor_full_name.
     *
     * @tags Relationships
     * @name ExportRosterHistory
     * @summary A supervising licence's roster over time, as CSV
     * @request GET:/api/v1/licensees/{state}/{license_number}/roster-history.csv
     * @secure
     */
    exportRosterHistory: (
      state:
        | "AL"
        | "AK"
        | "AZ"
        | "AR"
        | "CA"
        | "CO"
        | "CT"
        | "DE"
        | "DC"
        | "FL"
        | "GA"
        | "HI"
        | "ID"
        | "IL"
        | "IN"
        | "IA"
        | "KS"
        | "KY"
        | "LA"
        | "ME"
        | "MD"
        | "MA"
        | "MI"
        | "MN"
        | "MS"
        | "MO"
        | "MT"
        | "NE"
        | "NV"
        | "NH"
        | "NJ"
        | "NM"
        | "NY"
        | "NC"
        | "ND"
        | "OH"
        | "OK"
        | "OR"
        | "PA"
        | "RI"
        | "SC"
        | "SD"
        | "TN"
        | "TX"
        | "UT"
        | "VT"
        | "VA"
        | "WA"
        | "WV"
        | "WI"
        | "WY"
        | "PR"
        | "VI"
        | "GU"
        | "AS"
        | "MP",
      licenseNumber: string,
      query?: {
        /**
         * Calendar months, or ISO weeks (Monday to Sunday)
         * @default "month"
         */
        period?: "month" | "week";
        /**
         * A day in the first period (default: the 12th period back from `to`)
         * @format date
         * @pattern ^\d{4}-\d{2}-\d{2}$
         * @example "2024-06-30"
         */
        from?: string;
        /**
         * A day in the last period (default: today, the service's UTC date)
         * @format date
         * @pattern ^\d{4}-\d{2}-\d{2}$
         * @example "2024-06-30"
         */
        to?: string;
        /** Role of the supervised licence in a relationship (filters take it in any letter case) */
        affiliate_role?: AffiliateRole;
        /** Kind of supervision; the edge points from the supervisor to the supervised licence (filters take it in any letter case) */
        relationship_type?: RelationshipType;
      },
      params: RequestParams = {},
    ) =>
      this.request<
        string,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/licensees/${state}/${licenseNumber}/roster-history.csv`,
        method: "GET",
        query: query,
        secure: true,
        ...params,
      }),

    /**
     * @description Open supervising relationships walked upward level by level, cycle-safe and bounded by max_depth; `terminated_by` says whether the walk reached the top, met a cycle or hit the bound.
     *
     * @tags Relationships
     * @name GetCredentialHierarchy
     * @summary The supervisor chain of a credential, walked upward
     * @request GET:/api/v1/license-credentials/{credential_id}/hierarchy
     * @secure
     */
    getCredentialHierarchy: (
      credentialId: string,
      query?: {
        /**
         * How many levels to walk upward at most
         * @min 1
         * @max 25
         * @default 10
         */
        max_depth?: number;
      },
      params: RequestParams = {},
    ) =>
      this.request<
        CredentialHierarchy,
        ErrorResponse | HTTPValidationError | RateLimitedResponse
      >({
        path: `/api/v1/license-credentials/${credentialId}/hierarchy`,
        method: "GET",
        query: query,
        secure: true,
        format: "json",
        ...params,
      }),
  };
  wellKnown = {
    /**
     * @description Every Ed25519 key that ever signed a receipt, the active one and those rotated away from, so that any receipt verifies for as long as it is kept. A key marked compromised carries `revoked`. Served without a key and cacheable for five minutes.
     *
     * @tags Verifications
     * @name GetReceiptKeys
     * @summary The public keys that verify receipts (JWKS)
     * @request GET:/.well-known/jwks.json
     */
    getReceiptKeys: (params: RequestParams = {}) =>
      this.request<ReceiptKeys, HTTPValidationError | ErrorResponse>({
        path: `/.well-known/jwks.json`,
        method: "GET",
        format: "json",
        ...params,
      }),
  };
}
