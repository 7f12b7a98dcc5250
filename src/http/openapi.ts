import { OpenApiGeneratorV31, type OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { DEFAULT_RATE_LIMITS, PLANS } from '../domain/plans.js';
import {
  AFFILIATE_ROLES,
  RELATIONSHIP_TYPES,
  STATUS_FILTER_VALUES,
  STATUS_TABLE,
} from '../domain/vocabulary.js';

export function openApiDocument(registry: OpenAPIRegistry) {
  const statusTable = Object.entries(STATUS_TABLE)
    .map(([published, value]) => `| ${published} | ${value} |`)
    .join('\n');
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Licensee Verification Service',
      version: '1.0.0',
      description: [
        'Verify U.S. real-estate licences one at a time or a hundred at a time, search licensees within a state, and walk supervision relationships with their effective dates.',
        '',
        '**Errors.** Invalid query, path or body: 422 `{"detail": [{"loc", "msg", "type"}]}`; malformed JSON: 422 with `loc: ["body"]` and `type: "json_invalid"`; a body that is not `application/json`: 422 with `type: "content_type_invalid"`. Unknown licence, credential or path: 404 `{"detail": "..."}`. A method the path does not take: 405 with `Allow`; `OPTIONS`: 204 with `Allow`. Filter values (`status`, `license_type`, `affiliate_role`, `relationship_type`) are taken in any letter case.',
        '',
        '**Licence numbers** are matched in canonical form: trimmed, upper-cased, inner spaces removed, leading zeros and published prefixes/suffixes kept. State codes are case-insensitive.',
        '',
        `**affiliate_role** values: ${AFFILIATE_ROLES.join(', ')}. **relationship_type** values: ${RELATIONSHIP_TYPES.join(', ')}. Edges point from the supervisor to the supervised licence.`,
        '',
        `**Status filter** values: ${STATUS_FILTER_VALUES.join(', ')}. Each published status maps to exactly one (after lower-casing and dropping punctuation):`,
        '',
        '| published status | filter value |',
        '|---|---|',
        statusTable,
        '',
        '**Authentication.** Every `/api/v1` operation except `GET /api/v1/coverage` needs `Authorization: Bearer <API key>`. A missing, malformed, unknown or revoked key gets 401 with `WWW-Authenticate: Bearer` (with `error="invalid_token"` for a bad key).',
        '',
        `**Plans and quotas** (lookups per calendar month, UTC): ${Object.values(PLANS).map((p) => `${p.name} ${p.monthlyLookups.toLocaleString('en-US')}${p.batch ? '' : ' (no batch)'}`).join(', ')}. Metered lookups: search, verify, batch, get, affiliations, supervisors, affiliates, hierarchy and the change feed and every legacy licensee/licence operation; a verification job counts one unit per 100 rows started, as it runs; each HTTP call counts once (a batch of 100 included) when it answers 2xx, 304 (a conditional request confirming the licence unchanged) or 404; HEAD counts like GET. Not metered: health, coverage, states, sources, readiness, account, usage, keys, watchlist, webhooks, verification records, reading jobs and their results. Metered responses carry \`RateLimit-Policy\` and \`RateLimit\` (draft-ietf-httpapi-ratelimit-headers-10); a spent quota gets 429 with \`Retry-After\`; batch on the free plan gets 402. **Request rate**: every authenticated call also counts against its account's rate (${Object.values(PLANS).map((p) => `${p.name} ${DEFAULT_RATE_LIMITS[p.name].perSecond}/s, bursts of ${DEFAULT_RATE_LIMITS[p.name].burst}`).join('; ')}, unless the operator set others), listed as the \`"rate"\` item of the same headers; over it, 429 with \`Retry-After\` and \`limit: "rate"\` in the body (a spent quota's says \`"monthly"\`), not metered.`,
        '',
        '**Deprecation.** Legacy operations are marked deprecated and answer with `Deprecation` (RFC 9745) and `Link: <successor>; rel="successor-version"` headers; they stay available in v1.',
      ].join('\n'),
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'Licensees', description: 'Search, verify, batch verify, read' },
      { name: 'Relationships', description: 'Supervisors, affiliates, history, hierarchy' },
      { name: 'Coverage', description: 'Jurisdictions and their sources' },
      { name: 'Health', description: 'Liveness and readiness' },
      { name: 'Account', description: 'The calling account, its usage and API keys' },
      { name: 'Monitoring', description: 'The licences an account watches (not metered)' },
      { name: 'Verification jobs', description: 'Rosters of up to 100,000 licences verified in the background' },
      { name: 'Legacy', description: 'Kept for backward compatibility; prefer the canonical operations' },
    ],
  });
}
