import { route, type RouteContext } from '../../http/route.js';
import { ExpiryAlerts, ExpiryAlertsRequest, Followed, FollowedList, StatePath, Unfollowed, Unwatched, WatchedPath, WatchlistPage, WatchlistQuery, WatchRequest, WatchResult } from './watchlist.schemas.js';
import type { WatchlistService } from './watchlist.service.js';

/** The account's watchlist: not metered. */
export function watchlistRoutes(ctx: RouteContext, service: WatchlistService) {
  const tags = ['Monitoring'];
  // Before /watchlist/{state}/{license_number}: `states` is not a state code.
  route(ctx, {
    method: 'put',
    path: '/api/v1/watchlist/states/:state',
    operationId: 'followState',
    summary: 'Follow a whole state: every change event of it goes to the account\'s webhooks',
    description: "Idempotent. 402 past the plan's limit (free 1, starter 5, growth 25, enterprise 60).",
    tags,
    params: StatePath,
    response: Followed,
    errors: [402],
    handler: ({ params }, _req, res) => service.follow(res.locals.caller!.account, params.state),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/watchlist/states',
    operationId: 'listFollowedStates',
    summary: 'The states the account follows whole',
    tags,
    response: FollowedList,
    handler: (_input, _req, res) => service.followed(res.locals.caller!.account),
  });
  route(ctx, {
    method: 'delete',
    path: '/api/v1/watchlist/states/:state',
    operationId: 'unfollowState',
    summary: 'Stop following a state',
    tags,
    params: StatePath,
    response: Unfollowed,
    errors: [404],
    handler: ({ params }, _req, res) => service.unfollow(res.locals.caller!.account, params.state),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/watchlist/expiry-alerts',
    operationId: 'getExpiryAlerts',
    summary: "The days before a watched licence's expiration date the account is told",
    description: 'Each reached mark is told once as `license_expiring`, counted in the licence\'s state\'s local date (docs/changes.md, *Expiries ahead*).',
    tags,
    response: ExpiryAlerts,
    handler: (_input, _req, res) => service.expiryAlerts(res.locals.caller!.account),
  });
  route(ctx, {
    method: 'put',
    path: '/api/v1/watchlist/expiry-alerts',
    operationId: 'setExpiryAlerts',
    summary: "Choose the days before a watched licence's expiration date to be told",
    description: 'From the next pass (each hour), the nearest chosen mark a licence has reached is told, once; marks told before stay told.',
    tags,
    body: ExpiryAlertsRequest,
    response: ExpiryAlerts,
    handler: ({ body }, _req, res) => service.setExpiryAlerts(res.locals.caller!.account, body.days),
  });
  route(ctx, {
    method: 'post',
    path: '/api/v1/watchlist',
    operationId: 'watchLicences',
    summary: 'Watch licences (up to 1,000 a call)',
    description: "A licence not on file may be watched: its `license_added` event comes when it appears. 402 when the account would pass its plan's limit (free 25, starter 1,000, growth 10,000, enterprise 100,000); then nothing is added.",
    tags,
    body: WatchRequest,
    response: WatchResult,
    errors: [402],
    handler: ({ body }, _req, res) => service.add(res.locals.caller!.account, body.items),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/watchlist',
    operationId: 'listWatchedLicences',
    summary: 'The watched licences, by state and licence number',
    tags,
    query: WatchlistQuery,
    response: WatchlistPage,
    handler: ({ query }, _req, res) => service.page(res.locals.caller!.account, query.page, query.per_page),
  });
  route(ctx, {
    method: 'delete',
    path: '/api/v1/watchlist/:state/:license_number',
    operationId: 'unwatchLicence',
    summary: 'Stop watching a licence',
    tags,
    params: WatchedPath,
    response: Unwatched,
    errors: [404],
    handler: ({ params }, _req, res) => service.remove(res.locals.caller!.account, params),
  });
}
