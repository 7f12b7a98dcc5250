import { sendCsv } from '../../http/csv-download.js';
import { route, type RouteContext } from '../../http/route.js';
import { z } from '../../http/zod.js';
import { LicensePath } from '../licensees/licensees.schemas.js';
import {
  AffiliatesQuery,
  AffiliatesResponse,
  AffiliationsQuery,
  AffiliationsResponse,
  HierarchyPath,
  HierarchyQuery,
  HierarchyResponse,
  ROSTER_PERIODS_MAX,
  RosterHistoryCsvQuery,
  RosterHistoryQuery,
  RosterHistoryResponse,
  SupervisorPath,
  SupervisorsQuery,
  SupervisorsResponse,
} from './relationships.schemas.js';
import type { RelationshipsService } from './relationships.service.js';

const ROSTER_CSV_COLUMNS = [
  'period_start', 'period_end', 'in_force_at_period_end', 'change', 'license_number', 'full_name', 'license_class', 'relationship_type', 'affiliate_role',
  'effective_from', 'effective_to', 'transfer_supervisor_license_number', 'transfer_supervisor_full_name',
] as const;

type RosterPeriods = Awaited<ReturnType<RelationshipsService['rosterHistory']>>['data'];

/** The CSV's rows: each joiner and leaver with its period, and a row for a period with neither. */
async function* rosterRows(periods: RosterPeriods) {
  for (const p of periods) {
    const period = { period_start: p.period_start, period_end: p.period_end, in_force_at_period_end: p.in_force_at_end };
    if (!p.joined_affiliates.length && !p.left_affiliates.length) yield { ...period, change: 'none' };
    for (const [change, list] of [['joined', p.joined_affiliates], ['left', p.left_affiliates]] as const) {
      for (const a of list) {
        const other = change === 'joined' ? a.transferred_from : a.transferred_to;
        yield {
          ...period, change, license_number: a.license_number, full_name: a.full_name, license_class: a.license_class, relationship_type: a.relationship_type,
          affiliate_role: a.affiliate_role, effective_from: a.effective_from, effective_to: a.effective_to,
          transfer_supervisor_license_number: other?.license_number ?? null, transfer_supervisor_full_name: other?.full_name ?? null,
        };
      }
    }
  }
}

export function relationshipsRoutes(
  ctx: RouteContext, service: RelationshipsService) {
  const tags = ['Relationships'];
  route(ctx, {
    method: 'get',
    path: '/api/v1/licensees/:state/:license_number/affiliations',
    operationId: 'listAffiliations',
    metered: 'lookup',
    summary: 'Supervision history of a licence, with effective dates',
    description:
      'A relationship is in force on day d when effective_from <= d < effective_to (open while effective_to is null). ' +
      'Without as_of: the open relationships, or all with include_inactive=true. With as_of: those in force that day, plus ' +
      'those that had ended by then with include_inactive=true. Newest first.',
    tags,
    params: LicensePath,
    query: AffiliationsQuery,
    response: AffiliationsResponse,
    errors: [404],
    handler: async ({ params, query }) => ({ data: await service.affiliations(params, query) }),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/licensees/:state/:license_number/supervisors',
    operationId: 'listSupervisors',
    metered: 'lookup',
    summary: 'Current supervisors of a licence',
    description: 'All open supervising relationships; `data` is empty (200) when none are on file.',
    tags,
    params: LicensePath,
    query: SupervisorsQuery,
    response: SupervisorsResponse,
    errors: [404],
    handler: async ({ params, query }) => ({ data: await service.supervisors(params, query) }),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/licensees/:state/:license_number/affiliates',
    operationId: 'listAffiliates',
    metered: 'lookup',
    summary: 'Current affiliates of a supervising licence',
    description: 'Paged, ordered like search results, with an exact total.',
    tags,
    params: SupervisorPath,
    query: AffiliatesQuery,
    response: AffiliatesResponse,
    errors: [404],
    handler: ({ params, query }) => service.affiliates(params, query, query.page, query.per_page),
  });
  const rosterDescription =
    `Per calendar month or ISO week, at most ${ROSTER_PERIODS_MAX} periods: the relationships that began and ended, how many were in force on the ` +
    "period's last day, and the transfers in and out (an affiliate whose relationship of the same type under another supervisor ended at most 90 days " +
    'before it joined, or began at most 90 days after it left). From the effective dates on file, as the relationships stand today.';
  route(ctx, {
    method: 'get',
    path: '/api/v1/licensees/:state/:license_number/roster-history',
    operationId: 'getRosterHistory',
    metered: 'lookup',
    summary: "A supervising licence's roster over time",
    description: `${rosterDescription} The counts are whole; each list names one page of its affiliates (\`page\`, \`per_page\`: the same page of every list and period), and the CSV names every one.`,
    tags,
    params: SupervisorPath,
    query: RosterHistoryQuery,
    response: RosterHistoryResponse,
    errors: [404],
    handler: ({ params, query }) => service.rosterHistory(params, query, { periods: ROSTER_PERIODS_MAX, page: query.page, perPage: query.per_page }),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/licensees/:state/:license_number/roster-history.csv',
    operationId: 'exportRosterHistory',
    metered: 'lookup',
    summary: "A supervising licence's roster over time, as CSV",
    description: `${rosterDescription} One row per affiliate who joined or left (\`change\`), with its period and the period's count in force; a period with neither has one row, \`change\` \`none\`. Columns: ${ROSTER_CSV_COLUMNS.join(', ')}.`,
    tags,
    params: SupervisorPath,
    query: RosterHistoryCsvQuery,
    errors: [404],
    produces: 'text/csv',
    response: z.string(),
    handler: async ({ params, query }, _req, res) => {
      const history = await service.rosterHistory(params, query, { periods: ROSTER_PERIODS_MAX, page: 1, perPage: Infinity });
      await sendCsv(res, rosterRows(history.data), { filename: `roster-history-${history.supervisor.state}-${history.supervisor.license_number}.csv`, columns: ROSTER_CSV_COLUMNS, line: (r) => r });
    },
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/license-credentials/:credential_id/hierarchy',
    operationId: 'getCredentialHierarchy',
    metered: 'lookup',
    summary: 'The supervisor chain of a credential, walked upward',
    description:
      'Open supervising relationships walked upward level by level, cycle-safe and bounded by max_depth; `terminated_by` ' +
      'says whether the walk reached the top, met a cycle or hit the bound.',
    tags,
    params: HierarchyPath,
    query: HierarchyQuery,
    response: HierarchyResponse,
    errors: [404],
    handler: ({ params, query }) => service.hierarchy(params.credential_id, query.max_depth),
  });
}
