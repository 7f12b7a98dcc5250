import { LicenseNumberParam, PageParam, PaginationMeta, StateCode, intQueryParam } from '../../http/common.schemas.js';
import { DEMO_BROKER, DEMO_LICENCE } from '../../http/examples.js';
import { z } from '../../http/zod.js';
import { DEFAULT_EXPIRY_DAYS } from '../../domain/expiries.js';

export const WatchRequest = z
  .object({
    items: z
      .array(z.object({ state: StateCode, license_number: LicenseNumberParam }).strict())
      .min(1, 'must hold at least one licence')
      .max(1000, 'must hold at most 1,000 licences'),
  })
  .strict()
  .openapi('WatchRequest', { example: { items: [{ state: 'TX', license_number: DEMO_LICENCE }, { state: 'TX', license_number: DEMO_BROKER }] } });

export const WatchResult = z
  .object({
    added: z.number().int(),
    already_watched: z.number().int(),
    watched: z.number().int().openapi({ description: 'Licences the account watches now' }),
    limit: z.number().int().openapi({ description: "The plan's limit" }),
  })
  .openapi('WatchResult');

export const WatchedLicence = z
  .object({
    state: z.string(),
    license_number: z.string().openapi({ description: 'Canonical form' }),
    license_credential_id: z.string(),
    added_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('WatchedLicence');

export const WatchlistPage = z.object({ data: z.array(WatchedLicence), meta: PaginationMeta }).openapi('WatchlistPage');

export const WatchlistQuery = z.object({ page: PageParam, per_page: intQueryParam(1, 1000, 100, 'Items per page, 1 to 1,000') });

export const WatchedPath = z.object({ state: StateCode, license_number: LicenseNumberParam });

export const Unwatched = z.object({ state: z.string(), license_number: z.string(), removed: z.literal(true) }).openapi('Unwatched');

export const StatePath = z.object({ state: StateCode });

export const Followed = z
  .object({
    state: z.string(),
    following: z.literal(true),
    states: z.number().int().openapi({ description: 'States the account follows now' }),
    limit: z.number().int().openapi({ description: "The plan's limit" }),
  })
  .openapi('FollowedState');

export const FollowedList = z
  .object({ data: z.array(z.object({ state: z.string(), added_at: z.string().openapi({ format: 'date-time' }) })) })
  .openapi('FollowedStates');

export const Unfollowed = z.object({ state: z.string(), following: z.literal(false) }).openapi('UnfollowedState');

export const ExpiryAlertsRequest = z
  .object({
    days: z
      .array(z.number().int().min(0, 'must be 0 or more').max(365, 'must be at most 365'))
      .min(1, 'must hold at least one day')
      .max(10, 'must hold at most 10 days')
      .refine((d) => new Set(d).size === d.length, 'must not repeat a day')
      .openapi({ description: 'Days before a watched licence\'s expiration date to be told (`license_expiring`); 0 is the day itself' }),
  })
  .strict()
  .openapi('ExpiryAlertsRequest', { example: { days: [60, 14, 0] } });

export const ExpiryAlerts = z
  .object({
    days: z.array(z.number().int()).openapi({ description: 'Largest first' }),
    default: z.boolean().openapi({ description: `The service's days (${DEFAULT_EXPIRY_DAYS.join(', ')}), not chosen by the account` }),
  })
  .openapi('ExpiryAlerts');
