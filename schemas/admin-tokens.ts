// API tokens for automation (/api/admin/tokens).
import { Type } from '@sinclair/typebox';

export const ApiTokenScope = Type.Union([Type.Literal('read'), Type.Literal('read-write')], { description: '`read`: administrator GET routes; `read-write`: every administrator route' });

export const ApiToken = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  scope: ApiTokenScope,
  createdBy: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'to the minute' }),
  revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
}, { $id: 'ApiToken' });

export const ApiTokenList = Type.Object({ tokens: Type.Array(ApiToken) });

export const ApiTokenCreate = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9가-힣 ._-]+$', description: 'what holds it (one live token per name)' }),
  scope: ApiTokenScope,
  expiresInDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650, description: 'unset: no expiry' })),
});

export const ApiTokenCreated = Type.Object({
  token: Type.String({ description: 'the secret, shown this once: use it as `Authorization: Bearer <token>`' }),
  apiToken: ApiToken,
});
