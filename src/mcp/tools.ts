// The MCP tools: each calls the service through the typed client and answers with text a person
// can read beside the API's own JSON as structured content.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { LvsApiError, type AffiliationHistoryItem, type LvsClient } from '../../clients/typescript/src/index.js';
import { IsoDate, LicenseNumberParam, StateCode } from '../http/common.schemas.js';
import { LicenseTypeFilter, StatusFilter } from '../modules/licensees/licensees.schemas.js';

// The service's own field schemas, described for an assistant (zod's JSON Schema drops OpenAPI metadata).
const state = StateCode.describe('Two-letter code of a U.S. jurisdiction (TX, FL, CA ...), in any case');
const licence = { state, license_number: LicenseNumberParam.describe('Licence number as published; case and spacing are ignored') };
const name = z.string().trim().min(1).max(200);

type Answer = { text: string; data: object };

/** A tool's answer, or the service's refusal (a 401, 402, 422, 429 ...) as a tool error in its own words. */
async function answer(work: () => Promise<Answer>): Promise<CallToolResult> {
  try {
    const { text, data } = await work();
    return { content: [{ type: 'text', text }], structuredContent: data as Record<string, unknown> };
  } catch (err) {
    if (err instanceof LvsApiError) {
      const why = err.status === 401 ? 'the API key was refused' : err.status === 402 ? 'the account\'s plan does not include this' : err.status === 429 ? 'a limit was reached' : `the service answered ${err.status}`;
      return { isError: true, content: [{ type: 'text', text: `${why}: ${err.message}` }] };
    }
    return { isError: true, content: [{ type: 'text', text: `the service could not be reached: ${(err as Error).message}` }] };
  }
}

const line = (l: { state?: string | null; license_number?: string | null; full_name?: string | null; license_type?: string | null; status?: string | null; expiration_date?: string | null }) =>
  `${l.state ?? ''} ${l.license_number ?? ''}: ${l.full_name ?? '(no name)'}${l.license_type ? `, ${l.license_type}` : ''}${l.status ? `, ${l.status}` : ''}${l.expiration_date ? `, expires ${l.expiration_date}` : ''}`;

export function mcpServer(client: LvsClient, pageCap: number): McpServer {
  const server = new McpServer({ name: 'licensee-verification-service', version: '0.1.0' });
  const perPage = z.number().int().min(1).max(pageCap).default(Math.min(10, pageCap));
  const page = z.number().int().min(1).default(1);
  const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };

  server.registerTool(
    'verify_licence',
    {
      title: 'Verify a licence',
      description: 'Verify one U.S. real-estate licence by state and number, optionally against the holder\'s name: the verdict (clear, consider, not_found), its reasons, the licence and the source.',
      inputSchema: { ...licence, name: name.optional().describe('The holder\'s or firm\'s name as presented: adds a name match') },
      annotations: readOnly,
    },
    ({ state, license_number, name }) =>
      answer(async () => {
        const { data } = await client.api.verifyLicense({ state: state as never, license_number, name });
        const l = data.licensee;
        const text = [
          `${state} ${l?.license_number ?? license_number.toUpperCase()}: ${data.verdict}${data.reasons.length ? ` (${data.reasons.join(', ')})` : ''}`,
          l ? line(l) : 'No licence with that state and number on file.',
          data.name_match ? `Name match: ${data.name_match.result}` : '',
          data.source ? `Source: ${data.source.name ?? data.source.id ?? ''}${data.source.snapshot_date ? `, snapshot ${data.source.snapshot_date}` : ''}` : '',
        ].filter(Boolean);
        return { text: text.join('\n'), data };
      }),
  );

  server.registerTool(
    'verify_batch',
    {
      title: 'Verify up to 100 licences',
      description: 'Verify up to 100 licences at once (the plan must include batch); one line per licence, in the order sent.',
      inputSchema: { licenses: z.array(z.object({ ...licence, name: name.optional() })).min(1).max(100) },
      annotations: readOnly,
    },
    ({ licenses }) =>
      answer(async () => {
        const { data } = await client.api.batchVerifyLicenses({ licenses: licenses as never });
        const text = data.data.map((r) => `${r.index + 1}. ${r.state} ${r.license_number}: ${r.verdict}${r.reasons.length ? ` (${r.reasons.join(', ')})` : ''}${r.licensee?.full_name ? `, ${r.licensee.full_name}` : ''}`);
        return { text: text.join('\n'), data };
      }),
  );

  server.registerTool(
    'search_licensees',
    {
      title: 'Search licensees in a state',
      description: `Search one state's licensees by name, status, licence type, brokerage or city (case- and accent-insensitive substrings); at most ${pageCap} a page, with the total.`,
      inputSchema: {
        state,
        name: name.optional(),
        first_name: name.optional(),
        last_name: name.optional(),
        business_name: name.optional(),
        status: StatusFilter.optional(),
        license_type: LicenseTypeFilter.optional(),
        brokerage: name.optional(),
        city: name.optional(),
        page,
        per_page: perPage,
      },
      annotations: readOnly,
    },
    (query) =>
      answer(async () => {
        const { data } = await client.api.searchLicensees(query as never);
        const { total, page, per_page } = data.meta;
        const first = (page - 1) * per_page;
        const head = total ? `${total} match; ${first + 1}-${first + data.data.length} here:` : 'No licensee matches.';
        return { text: [head, ...data.data.map(line)].join('\n'), data };
      }),
  );

  server.registerTool(
    'list_supervisors',
    {
      title: 'Current supervisors of a licence',
      description: 'The brokers and brokerages supervising a licence today, with the relationship and its dates.',
      inputSchema: licence,
      annotations: readOnly,
    },
    ({ state, license_number }) =>
      answer(async () => {
        const { data } = await client.api.listSupervisors(state as never, license_number);
        const text = data.data.map((s) => `${s.license_number}: ${s.full_name ?? '(no name)'}, ${s.relationship_type} since ${s.effective_from}`);
        return { text: text.length ? text.join('\n') : 'No supervisor in force.', data };
      }),
  );

  server.registerTool(
    'list_affiliates',
    {
      title: 'Licences a broker supervises',
      description: `The licences a broker or brokerage supervises today, a page at a time (at most ${pageCap}), with the total.`,
      inputSchema: { ...licence, page, per_page: perPage },
      annotations: readOnly,
    },
    ({ state, license_number, page, per_page }) =>
      answer(async () => {
        const { data } = await client.api.listAffiliates(state as never, license_number, { page, per_page });
        const first = (page - 1) * per_page;
        const head = data.meta.total ? `${data.meta.total} affiliates; ${first + 1}-${first + data.data.length} here:` : 'Supervises no licence today.';
        return { text: [head, ...data.data.map((a) => `${a.license_number}: ${a.full_name ?? '(no name)'}, ${a.relationship_type} since ${a.effective_from}`)].join('\n'), data };
      }),
  );

  server.registerTool(
    'hierarchy_on_date',
    {
      title: 'Supervision chain on a date',
      description: 'Who supervised a licence on a given day, and who supervised them, upward: the relationships in force that day (effective_from <= date < effective_to), level by level.',
      inputSchema: {
        ...licence,
        date: IsoDate.describe('The day to answer for (YYYY-MM-DD)'),
        max_depth: z.number().int().min(1).max(10).default(5),
      },
      annotations: readOnly,
    },
    ({ state, license_number, date, max_depth }) =>
      answer(async () => {
        const levels: { depth: number; supervises: string; supervisors: AffiliationHistoryItem[] }[] = [];
        const seen = new Set([license_number.toUpperCase()]);
        let frontier = [license_number];
        for (let depth = 1; depth <= max_depth && frontier.length; depth++) {
          const next: string[] = [];
          for (const number of frontier) {
            const { data } = await client.api.listAffiliations(state as never, number, { as_of: date });
            const inForce = data.data.filter((a) => a.status === 'active');
            if (inForce.length) levels.push({ depth, supervises: number, supervisors: inForce });
            for (const a of inForce) if (!seen.has(a.supervisor_license_number.toUpperCase())) (seen.add(a.supervisor_license_number.toUpperCase()), next.push(a.supervisor_license_number));
          }
          frontier = next;
        }
        const text = levels.flatMap((l) => l.supervisors.map((s) => `${'  '.repeat(l.depth - 1)}${l.supervises} <- ${s.supervisor_license_number} ${s.supervisor_full_name ?? ''} (${s.relationship_type}, ${s.effective_from} to ${s.effective_to ?? 'open'})`));
        return { text: text.length ? [`${state} ${license_number} on ${date}:`, ...text].join('\n') : `${state} ${license_number} had no supervisor in force on ${date}.`, data: { state, license_number, date, levels } };
      }),
  );

  server.registerTool(
    'change_feed',
    {
      title: 'Licence changes since a cursor',
      description: 'Changes the service detected (licences added, status, expiration or name changed, supervision started or ended ...), oldest first, from a cursor (the next_cursor of the last call) or a day.',
      inputSchema: {
        cursor: z.string().min(1).max(64).optional().describe('The next_cursor of the previous call'),
        since: IsoDate.optional().describe('First call only: events detected on or after this day'),
        state: state.optional(),
        types: z.string().max(400).optional().describe('Comma-separated event types'),
        limit: z.number().int().min(1).max(pageCap).default(pageCap),
      },
      annotations: readOnly,
    },
    (query) =>
      answer(async () => {
        const { data } = await client.api.listLicenseeChanges(query as never);
        const text = data.data.map((e) => `${e.detected_at.slice(0, 10)} ${e.type}: ${e.state} ${e.license_number}`);
        text.push(`next_cursor: ${data.next_cursor ?? '(none yet)'}${data.has_more ? ' (more waiting)' : ''}`);
        return { text: text.join('\n'), data };
      }),
  );

  server.registerTool(
    'watch_licence',
    {
      title: 'Watch a licence',
      description: 'Add a licence to the account\'s watchlist: its changes reach the account\'s webhooks and alerts.',
      inputSchema: licence,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    ({ state, license_number }) =>
      answer(async () => {
        const { data } = await client.api.watchLicences({ items: [{ state: state as never, license_number }] });
        return { text: `${state} ${license_number} is watched (${data.watched} newly added).`, data };
      }),
  );

  server.registerTool(
    'unwatch_licence',
    {
      title: 'Stop watching a licence',
      description: 'Remove a licence from the account\'s watchlist.',
      inputSchema: licence,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    ({ state, license_number }) =>
      answer(async () => {
        const { data } = await client.api.unwatchLicence(state as never, license_number);
        return { text: `${state} ${license_number} is no longer watched.`, data };
      }),
  );
  return server;
}
