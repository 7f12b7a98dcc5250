import { route, type RouteContext } from '../../http/route.js';
import { z } from '../../http/zod.js';
import { Account, ApiKey, CreateApiKeyRequest, CreatedApiKey, DeletedApiKey, KeyIdPath, Usage } from './accounts.schemas.js';
import { accountView, type AccountsService } from './accounts.service.js';
import type { Meter } from './metering.js';

export function accountsRoutes(ctx: RouteContext, accounts: AccountsService, meter: Meter, now: () => Date) {
  const tags = ['Account'];
  route(ctx, {
    method: 'get',
    path: '/api/v1/account',
    operationId: 'getAccount',
    summary: 'The account tied to the API key',
    tags,
    response: Account,
    handler: (_input, _req, res) => accountView(res.locals.caller!.account, now()),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/account/usage',
    operationId: 'getAccountUsage',
    summary: "This calendar month's metered usage (UTC), by endpoint, with quota and reset",
    tags,
    response: Usage,
    handler: (_input, _req, res) => meter.usage(res.locals.caller!.account),
  });
  route(ctx, {
    method: 'get',
    path: '/api/v1/api-keys',
    operationId: 'listApiKeys',
    summary: 'Active API keys of the account (hashed, never the raw value)',
    tags,
    response: z.array(ApiKey),
    handler: (_input, _req, res) => accounts.listKeys(res.locals.caller!.account.id),
  });
  route(ctx, {
    method: 'post',
    path: '/api/v1/api-keys',
    operationId: 'createApiKey',
    summary: 'Create an API key; the raw key is in this response only',
    tags,
    body: CreateApiKeyRequest,
    bodyOptional: true,
    response: CreatedApiKey,
    handler: ({ body }, _req, res) => accounts.createKey(res.locals.caller!.account.id, body?.label ?? null),
  });
  route(ctx, {
    method: 'delete',
    path: '/api/v1/api-keys/:key_id',
    operationId: 'deleteApiKey',
    summary: 'Revoke an API key at once',
    description: "404 for an unknown key or another account's; 409 for the account's last active key (create another first).",
    tags,
    params: KeyIdPath,
    response: DeletedApiKey,
    errors: [404, 409],
    handler: ({ params }, _req, res) => accounts.revokeKey(res.locals.caller!.account.id, params.key_id),
  });
}
