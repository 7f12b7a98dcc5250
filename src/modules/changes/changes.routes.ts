import type { RouteContext } from '../../http/route.js';
import { route } from '../../http/route.js';
import { ChangeFeed, ChangesQuery } from './changes.schemas.js';
import type { ChangesService } from './changes.service.js';

export function changesRoutes(ctx: RouteContext, service: ChangesService) {
  route(ctx, {
    method: 'get',
    path: '/api/v1/licensees/changes',
    operationId: 'listLicenseeChanges',
    metered: 'lookup',
    summary: 'Change feed: what refreshes changed, oldest first',
    description:
      'Every change a state refresh detected: a licence added, its status, expiration date or name changed, leaving or returning to the source, a supervision starting or ending; a state\'s first load is one `state_loaded` event. Your feed also holds the alerts derived for your account from your watchlist (`supervisor_status_changed`, `supervision_gap_opened`, `designated_broker_changed`), which no other account sees. Page with `cursor` (the previous page\'s `next_cursor`); start with `since` (a date). Events are kept 400 days: an older cursor is 410.',
    tags: ['Licensees'],
    query: ChangesQuery,
    response: ChangeFeed,
    errors: [410],
    handler: ({ query }, _req, res) => service.feed({ ...query, account: res.locals.caller!.account.id }),
  });
}
