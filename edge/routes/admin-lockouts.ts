// /api/admin/lockouts: the login lockouts an administrator can see and clear
// (shared/accounts/lockouts.ts; `npm run admin -- unlock` does the same).
import { isIP } from 'node:net';
import { LockoutCleared, LockoutList, LockoutTargetQuery } from '../../schemas/admin-lockouts.ts';
import { ErrorResponse } from '../../schemas/common.ts';
import { compile } from '../../schemas/validate.ts';
import { clearLockout, listLockouts } from '../../shared/accounts/lockouts.ts';
import { HttpError } from '../../shared/errors.ts';
import type { Services } from '../../shared/services.ts';
import { clientKey } from '../client-key.ts';
import { reply } from '../context.ts';
import type { Route } from '../router.ts';

const targetQuery = compile(LockoutTargetQuery, 'invalid_query');

/** An IPv6 client as the listing names it (`2001:db8:1:2::/64`). */
const IPV6_CLIENT_KEY = /^[0-9a-f:]+::\/64$/i;

/** What `unlock <target>` means: a client (an address, keyed as the login counts it) or an account name. */
export function lockoutTarget(text: string): { client: string | null; name: string } {
  const target = text.trim();
  const address = target.replace(/^\[(.*)\]$/, '$1');
  if (isIP(address) !== 0) return { client: clientKey(address), name: target };
  if (IPV6_CLIENT_KEY.test(target)) return { client: target.toLowerCase(), name: target };
  return { client: null, name: target };
}

export function adminLockoutRoutes(s: Services): Route[] {
  const tags = ['admin-auth'];
  return [
    {
      method: 'get', path: '/api/admin/lockouts', auth: 'admin',
      handler: async () => reply({ lockouts: await listLockouts(s.db, new Date(s.clock.now())) }),
      doc: { summary: 'Login lockouts now in force', tags, description: 'Client addresses locked out of a login (5 failures, 15 minutes) and accounts whose comparisons are slowed down, newest first, at most 1,000 of each.', responses: { 200: LockoutList, 401: ErrorResponse } },
    },
    {
      method: 'delete', path: '/api/admin/lockouts', auth: 'admin',
      handler: async (ctx) => {
        const { target } = targetQuery.parse({ target: ctx.query.get('target') ?? undefined });
        const cleared = await clearLockout(s.db, lockoutTarget(target), ctx.admin!.username);
        if (!cleared) throw new HttpError(404, '해당 주소나 계정에 걸린 로그인 잠금이 없습니다.', {}, 'not_locked');
        s.logger.info({ admin: ctx.admin!.username, kind: cleared.kind, scopes: cleared.scopes }, 'login lockout cleared');
        return reply(cleared);
      },
      doc: { summary: 'Clear a login lockout', tags, query: LockoutTargetQuery, description: '`target`: a client address (its failures in both logins are forgotten; an IPv6 address clears its /64) or an administrator username / user e-mail (the account\'s slowdown is forgotten). Written to the activity log. Nothing recorded for it → 404 `not_locked`.', responses: { 200: LockoutCleared, 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse } },
    },
  ];
}
