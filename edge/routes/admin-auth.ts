// Administrator login and token check, /api/auth (decisions.md), and the authentication step that
// runs in front of every administrator route.
import { AdminLoginBody, AdminLoginResponse, AdminVerifyResponse } from '../../schemas/admin-auth.ts';
import { ErrorResponse } from '../../schemas/common.ts';
import { compile } from '../../schemas/validate.ts';
import { adminByUsername, findAdminById, type AdminUserRow } from '../../shared/db/repositories/admin-users.ts';
import { API_TOKEN_PREFIX, authenticateApiToken } from '../../shared/accounts/api-tokens.ts';
import { badRequest, forbidden, unauthorized } from '../../shared/errors.ts';
import type { Services } from '../../shared/services.ts';
import { bearerToken } from '../bearer.ts';
import { reply, type Context } from '../context.ts';
import type { Route } from '../router.ts';
import { NO_STORE } from './account.ts';
import { checkPassword, readLoginBody } from '../login-lockout.ts';

const loginBody = compile(AdminLoginBody);

/**
 * ctx.admin.id of a request that carries an API token (administrator ids start at 1): its row is
 * read from PostgreSQL by requireExistingAdmin, which then names it `token:<name>`.
 */
const API_TOKEN_ADMIN_ID = 0;

/** 401 unless the request carries a valid administrator token or an API token; user tokens (audience `user`) fail. */
export function adminAuthenticator(s: Services) {
  return (ctx: Context): void => {
    const token = bearerToken(ctx);
    if (!token) throw unauthorized('관리자 인증이 필요합니다.', 'token_missing');
    if (token.startsWith(API_TOKEN_PREFIX)) {
      ctx.admin = { id: API_TOKEN_ADMIN_ID, username: 'api-token', tokenVersion: 0 };
      return;
    }
    const claims = s.tokens.verifyAdmin(token);
    if (!claims) throw unauthorized('유효하지 않거나 만료된 관리자 토큰입니다.', 'token_invalid');
    ctx.admin = { id: claims.id, username: claims.username, tokenVersion: claims.version };
  };
}

/**
 * Administrator routes also check that the token's administrator still exists in admin_users, is
 * not disabled, and that the token carries its current token_version (raised by a password change,
 * a disable or a revoke): such a token is 401 at once, not after its 24 hours. The row is read by a
 * prepared statement on the primary key, as it was before versions existed. The token check itself
 * runs synchronously in the edge (adminAuthenticator); this one needs the database, so it wraps
 * the handler.
 */
export function requireExistingAdmin(s: Services, routes: Route[]): Route[] {
  return routes.map((route) => {
    if (route.auth !== 'admin') return route;
    const handler = route.handler;
    return {
      ...route,
      handler: async (ctx: Context) => {
        if (ctx.admin?.id === API_TOKEN_ADMIN_ID) {
          // Read on every request, so a revoked token is refused by every process at once.
          const apiToken = await authenticateApiToken(s.db, bearerToken(ctx)!, new Date(s.clock.now()), s.logger);
          if (!apiToken) throw unauthorized('유효하지 않거나 만료되었거나 폐기된 API 토큰입니다.', 'token_invalid');
          if (apiToken.scope === 'read' && route.method !== 'get') throw forbidden('읽기 전용 API 토큰으로는 바꿀 수 없습니다.', 'insufficient_scope');
          ctx.admin = { id: API_TOKEN_ADMIN_ID, username: `token:${apiToken.name}`, tokenVersion: 0 };
          return handler(ctx);
        }
        const admin = ctx.admin ? await findAdminById(s.db, ctx.admin.id) : null;
        if (!admin || admin.disabled || admin.token_version !== ctx.admin!.tokenVersion) throw unauthorized('유효하지 않거나 만료된 관리자 토큰입니다.', 'token_invalid');
        return handler(ctx);
      },
    };
  });
}

export function adminAuthRoutes(s: Services): Route[] {
  async function login(ctx: Context) {
    const { username, password } = await readLoginBody(s, 'admin', ctx.ip, async () => {
      const body = await ctx.json();
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('아이디와 비밀번호를 입력해 주세요.');
      return loginBody.parse(body);
    });
    const check = await checkPassword<AdminUserRow>(s, 'admin', ctx.ip, adminByUsername(username), (admin) => admin.password_hash, password.normalize('NFC'));
    if (!check.matched) throw unauthorized('아이디 또는 비밀번호가 올바르지 않습니다.', 'invalid_credentials');
    await check.succeed();
    const user = { id: check.account.id, username: check.account.username };
    return { json: { token: s.tokens.signAdmin({ ...user, version: check.account.token_version }), user }, headers: NO_STORE };
  }

  const tags = ['admin-auth'];
  return [
    {
      method: 'post', path: '/api/auth/login', handler: login, bodyLimit: 16 * 1024,
      doc: { summary: 'Administrator login (token: HS256, audience admin, 24 hours)', tags, body: AdminLoginBody, description: 'Missing field → 400; unknown user or wrong password → 401 (one message); per-IP lockout as /auth/login, counted separately → 429.', responses: { 200: AdminLoginResponse, 400: ErrorResponse, 401: ErrorResponse, 429: ErrorResponse } },
    },
    {
      method: 'get', path: '/api/auth/verify', handler: (ctx) => reply({ valid: true, user: { id: ctx.admin!.id, username: ctx.admin!.username } }), auth: 'admin',
      doc: { summary: 'Check an administrator token', tags, responses: { 200: AdminVerifyResponse, 401: ErrorResponse } },
    },
  ];
}
