// Typed uses of every operation through the committed client (clients/typescript), generated from
// the served /openapi.json: `npm test` type-checks this file, then the contract test runs it
// against the service (and .ci/run against one on Neo4j). A document that misstates a request or
// a response breaks one or the other.
import {
  LvsApiError,
  LvsClient,
  type Account,
  type AffiliateItem,
  type CredentialHierarchy,
  type Licensee,
  type PublicDesignatedBroker,
  type RosterHistory,
  type SupervisorItem,
  type VerifyResponse,
} from '../../../clients/typescript/src/index.js';

/** @param publish publishes a change event for TX 763827-SA, as a refresh would. */
export async function exercise(baseUrl: string, key: string, publish: () => Promise<void>): Promise<Record<string, number>> {
  const client = new LvsClient({ baseUrl, apiKey: key });
  const statuses: Record<string, number> = {};
  const call = async <T extends { status: number }>(operationId: string, pending: Promise<T>): Promise<T> => {
    const res = await pending;
    statuses[operationId] = res.status;
    return res;
  };
  const api = client.api;

  const health: string | undefined = (await call('getHealth', client.health.getHealth())).data.status as string | undefined;
  await call('getReadiness', api.getReadiness());
  const coverage = (await call('getCoverage', api.getCoverage())).data;
  const states: string[] = coverage.states.map((s) => s.state);
  await call('listStates', api.listStates());
  await call('listSources', api.listSources());
  await call('getSourcesCoverage', api.getSourcesCoverage());

  const account: Account = (await call('getAccount', api.getAccount())).data;
  const quota: number = (await call('getAccountUsage', api.getAccountUsage())).data.quota;
  await call('listApiKeys', api.listApiKeys());
  const created = (await call('createApiKey', api.createApiKey({ label: 'contract' }))).data;
  const raw: string = created.key;
  const revoked: true = (await call('deleteApiKey', api.deleteApiKey(created.id))).data.revoked;

  const hit: VerifyResponse = (await call('verifyLicense', api.verifyLicense({ state: 'TX', license_number: '763827-SA' }))).data;
  const licensee: Licensee | null | undefined = hit.licensee;
  const broker: PublicDesignatedBroker | null | undefined = licensee?.designated_broker;
  // A miss must be representable: a null licensee.
  const miss: VerifyResponse = { verified: false, licensee: null, verdict: 'not_found', reasons: ['not_covered'], name_match: null, source: null };
  const named: 'exact' | 'close' | 'mismatch' | undefined = (await api.verifyLicense({ state: 'TX', license_number: '763827-SA', name: 'Jose Munoz' })).data.name_match?.result;
  const batch = (
    await call('batchVerifyLicenses', api.batchVerifyLicenses({ licenses: [{ state: 'TX', license_number: '763827-sa' }, { state: 'TX', license_number: 'NOPE' }] }))
  ).data.data;
  const misses: (Licensee | null | undefined)[] = batch.filter((r) => !r.verified).map((r) => r.licensee);
  const found = (await call('searchLicensees', api.searchLicensees({ state: 'TX', status: 'active', license_type: 'salesperson', page: 1, per_page: 10 }))).data;
  const total: number = found.meta.total;
  const one: Licensee = (await call('getLicensee', api.getLicensee('TX', '763827-SA'))).data.data;

  const history = (await call('listAffiliations', api.listAffiliations('TX', '763827-SA', { include_inactive: true, as_of: '2024-01-01', relationship_type: 'sponsoring_broker' }))).data.data;
  const supervisors: SupervisorItem[] = (await call('listSupervisors', api.listSupervisors('TX', '763827-SA', { affiliate_role: 'salesperson' }))).data.data;
  const affiliates: AffiliateItem[] = (await call('listAffiliates', api.listAffiliates('TX', '100001-B', { page: 1, per_page: 5 }))).data.data;
  const roster: RosterHistory = (await call('getRosterHistory', api.getRosterHistory('TX', '100001-B', { period: 'month', from: '2024-01-01', to: '2024-06-30' }))).data;
  const joined: number | undefined = roster.data[0]?.joined;
  const rosterCsv = String((await call('exportRosterHistory', api.exportRosterHistory('TX', '100001-B', { period: 'week' }, { format: 'text' }))).data);
  const chain: CredentialHierarchy = (await call('getCredentialHierarchy', api.getCredentialHierarchy(one.id, { max_depth: 5 }))).data;
  const top: 'top' | 'cycle' | 'max_depth' = chain.terminated_by;

  await call('legacySearchLicensees', api.legacySearchLicensees({ last_name: 'quinn', state: 'TX' }));
  const single: SupervisorItem | null = (await call('legacyGetSupervisor', api.legacyGetSupervisor('TX', '763827-SA'))).data.data;
  const changes: boolean = (await call('listLicenseeChanges', api.listLicenseeChanges({ limit: 10 }))).data.has_more;
  const rawList = (await call('searchLicenses', api.searchLicenses({ state: 'TX', name: 'quinn' }))).data;
  const normalized: string | null = rawList.data[0]?.status_normalized ?? null;
  await call('countLicensesByType', api.countLicensesByType({ state: 'TX' }));
  await call('getLicense', api.getLicense('TX', '763827-SA'));
  const watching: number = (await call('watchLicences', api.watchLicences({ items: [{ state: 'TX', license_number: '763827-SA' }] }))).data.watched;
  const watched: string | undefined = (await call('listWatchedLicences', api.listWatchedLicences({ per_page: 10 }))).data.data[0]?.license_credential_id;
  const unwatched: true = (await call('unwatchLicence', api.unwatchLicence('TX', '763827-SA'))).data.removed;
  const expiryDays: number[] = (await call('setExpiryAlerts', api.setExpiryAlerts({ days: [60, 14, 0] }))).data.days;
  const expiryDefault: boolean = (await call('getExpiryAlerts', api.getExpiryAlerts())).data.default;
  const following: number = (await call('followState', api.followState('TX'))).data.states;
  const followed: string[] = (await call('listFollowedStates', api.listFollowedStates())).data.data.map((s) => s.state);
  // Nothing listens on port 9: the delivery is stored, and its attempts (if any) fail.
  const endpoint = (await call('createWebhookEndpoint', api.createWebhookEndpoint({ url: 'http://127.0.0.1:9/hook', event_types: ['status_changed'] }))).data;
  const secret: string = endpoint.secret;
  await publish();
  const endpoints: string[] = (await call('listWebhookEndpoints', api.listWebhookEndpoints())).data.data.map((e) => e.id);
  const status: 'enabled' | 'disabled' = (await call('getWebhookEndpoint', api.getWebhookEndpoint(endpoint.id))).data.status;
  const disabled: 'enabled' | 'disabled' = (await call('updateWebhookEndpoint', api.updateWebhookEndpoint(endpoint.id, { status: 'disabled' }))).data.status;
  const rotated: string = (await call('rotateWebhookSecret', api.rotateWebhookSecret(endpoint.id))).data.secret;
  const delivery = (await call('listWebhookDeliveries', api.listWebhookDeliveries(endpoint.id, { per_page: 10 }))).data.data[0];
  const redelivered: string = (await call('redeliverWebhook', api.redeliverWebhook(endpoint.id, delivery.id))).data.status;
  const deleted: true = (await call('deleteWebhookEndpoint', api.deleteWebhookEndpoint(endpoint.id))).data.deleted;
  const unfollowed: false = (await call('unfollowState', api.unfollowState('TX'))).data.following;
  const records = (await call('listVerifications', api.listVerifications({ verdict: 'consider,not_found', state: 'TX', per_page: 5 }))).data;
  const record: string = (await call('getVerification', api.getVerification(records.data[0].id))).data.data.body_sha256;
  const receipt: string = (await call('getVerificationReceipt', api.getVerificationReceipt(records.data[0].id))).data.data.jws;
  const review = (await call('createVerificationReview', api.createVerificationReview(records.data[0].id, { decision: 'escalated', reason: 'client', reviewer_name: 'Pat Lee' }))).data.data;
  const reviews: string[] = (await call('listVerificationReviews', api.listVerificationReviews(records.data[0].id))).data.data.map((r) => r.id);
  const decision: 'accepted' | 'rejected' | 'escalated' = (await call('getVerificationReview', api.getVerificationReview(records.data[0].id, review.id))).data.data.decision;
  const certificate = await call('getVerificationCertificatePdf', api.getVerificationCertificatePdf(records.data[0].id, { format: 'arrayBuffer' }));
  const certificateBytes: number = (certificate.data as unknown as ArrayBuffer).byteLength;
  const kids: string[] = (await call('getReceiptKeys', client.wellKnown.getReceiptKeys())).data.keys.map((k) => k.kid);
  const csv = await call('exportVerifications', api.exportVerifications({ from: '2026-01-01' }, { format: 'text' }));
  const exported: string = String(csv.data);
  const job = (await call('createVerificationJob', api.createVerificationJob({ rows: [{ state: 'TX', license_number: '763827-SA', name: 'Jose Munoz' }], label: 'client' }))).data.data;
  const jobs: string[] = (await call('listVerificationJobs', api.listVerificationJobs({ per_page: 5 }))).data.data.map((j) => j.id);
  const jobStatus: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled' = (await call('getVerificationJob', api.getVerificationJob(job.id))).data.data.status;
  const jobRows: number = (await call('listVerificationJobResults', api.listVerificationJobResults(job.id, { verdict: 'consider', per_page: 10 }))).data.meta.total;
  const jobCsv = String((await call('exportVerificationJobResults', api.exportVerificationJobResults(job.id, {}, { format: 'text' }))).data);
  // A server whose runner is running may have finished the one-row job already: then 409, as documented.
  const jobEnd: string = await call('cancelVerificationJob', api.cancelVerificationJob(job.id)).then(
    (res) => res.data.data.status,
    (err: unknown) => {
      if (!(err instanceof LvsApiError) || err.status !== 409) throw err;
      statuses.cancelVerificationJob = 409;
      return 'completed';
    },
  );
  // A finished job (cancelled here) has a receipt and a summary.
  const jobReceipt: string = (await call('getVerificationJobReceipt', api.getVerificationJobReceipt(job.id))).data.data.jws;
  const summary = await call('getVerificationJobSummaryPdf', api.getVerificationJobSummaryPdf(job.id, { format: 'arrayBuffer' }));
  const summaryBytes: number = (summary.data as unknown as ArrayBuffer).byteLength;

  // Everything read above is used, so that no typed read is dropped as unused.
  void [health, states, account, quota, raw, revoked, broker, miss, misses, total, history, supervisors, affiliates, joined, rosterCsv, expiryDays, expiryDefault, top, single, changes, normalized, watching, watched, unwatched, following, followed, secret, endpoints, status, disabled, rotated, redelivered, deleted, unfollowed, named, records.meta.next_cursor, record, receipt, reviews, decision, kids, certificateBytes, summaryBytes, exported, jobs, jobStatus, jobRows, jobCsv, jobEnd, jobReceipt];
  return statuses;
}
