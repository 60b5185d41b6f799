// Login lockouts for administrators (/api/admin/lockouts): listed and cleared.
import { Type } from '@sinclair/typebox';

export const Lockout = Type.Object({
  kind: Type.Union([Type.Literal('address'), Type.Literal('account')], { description: '`address`: a client locked out of a login; `account`: an account whose password comparisons are slowed down' }),
  scope: Type.Union([Type.Literal('user'), Type.Literal('admin')], { description: '`user`: /auth/login; `admin`: /api/auth/login' }),
  target: Type.String({ description: 'the client (an IPv4 address, an IPv6 client as its /64) or the account (username or e-mail)' }),
  failures: Type.Integer(),
  lastFailureAt: Type.String({ format: 'date-time' }),
  until: Type.String({ format: 'date-time', description: 'when it ends by itself' }),
}, { $id: 'Lockout' });

export const LockoutList = Type.Object({ lockouts: Type.Array(Lockout) });

export const LockoutTargetQuery = Type.Object({
  target: Type.String({ minLength: 1, maxLength: 320, description: 'a client address (or an IPv6 /64 as listed), an administrator username or a user e-mail' }),
});

export const LockoutCleared = Type.Object({
  kind: Type.Union([Type.Literal('address'), Type.Literal('account')]),
  scopes: Type.Array(Type.Union([Type.Literal('user'), Type.Literal('admin')])),
});
