// /api/admin/tokens: API tokens for automation (shared/accounts/api-tokens.ts; `npm run admin --
// token …` does the same).
import { ApiToken, ApiTokenCreate, ApiTokenCreated, ApiTokenList } from '../../schemas/admin-tokens.ts';
import { ErrorResponse } from '../../schemas/common.ts';
import { compile } from '../../schemas/validate.ts';
import { apiTokens, createApiToken, revokeToken } from '../../shared/accounts/api-tokens.ts';
import { conflict, notFound } from '../../shared/errors.ts';
import type { Services } from '../../shared/services.ts';
import { reply } from '../context.ts';
import { parseId } from '../params.ts';
import type { Route } from '../router.ts';
import { NO_STORE } from './account.ts';

const createBody = compile(ApiTokenCreate, { plainText: true });
const DAY_MS = 24 * 3600 * 1000;

export function adminTokenRoutes(s: Services): Route[] {
  const tags = ['admin-auth'];
  return [
    {
      method: 'get', path: '/api/admin/tokens', auth: 'admin',
      handler: async () => reply({ tokens: await apiTokens(s.db) }),
      doc: { summary: 'API tokens (never their secrets)', tags, responses: { 200: ApiTokenList, 401: ErrorResponse, 403: ErrorResponse } },
    },
    {
      method: 'post', path: '/api/admin/tokens', auth: 'admin', bodyLimit: 16 * 1024,
      handler: async (ctx) => {
        const input = createBody.parse(await ctx.json());
        const expiresAt = input.expiresInDays === undefined ? null : new Date(s.clock.now() + input.expiresInDays * DAY_MS);
        const created = await createApiToken(s.db, { name: input.name.normalize('NFC'), scope: input.scope, expiresAt }, ctx.admin!.username);
        if (!created) throw conflict('같은 이름의 API 토큰이 이미 있습니다. 먼저 폐기해 주세요.', 'name_taken');
        return { status: 201, json: { token: created.token, apiToken: created.view }, headers: NO_STORE };
      },
      doc: { summary: 'Create an API token (its secret is shown once)', tags, body: ApiTokenCreate, description: 'A live token of that name → 409. The secret is stored as its SHA-256 only. Written to the activity log.', responses: { 201: ApiTokenCreated, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 409: ErrorResponse } },
    },
    {
      method: 'delete', path: '/api/admin/tokens/:id', auth: 'admin',
      handler: async (ctx) => {
        const revoked = await revokeToken(s.db, { id: parseId(ctx.params.id) }, new Date(s.clock.now()), ctx.admin!.username);
        if (!revoked) throw notFound('해당 API 토큰이 없거나 이미 폐기되었습니다.');
        return reply(revoked);
      },
      doc: { summary: 'Revoke an API token', tags, description: 'Refused by every process from the next request on (each use reads PostgreSQL). Unknown or already revoked → 404. Written to the activity log.', responses: { 200: ApiToken, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse } },
    },
  ];
}
