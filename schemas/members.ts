// Members (decisions.md "Members and albums"), addressed by name.
import { Type } from '@sinclair/typebox';
import { DateString, Nullable } from './common.ts';

export const Member = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    nameEn: Nullable(Type.String()),
    birthDate: Nullable(DateString),
    position: Nullable(Type.String()),
    imageUrl: Nullable(Type.String()),
    instagram: Nullable(Type.String()),
    isFormer: Type.Boolean(),
    nicknames: Type.Array(Type.String()),
  },
  { $id: 'Member' },
);

/** PUT payload: only the fields sent change. */
export const MemberUpdatePayload = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
    nameEn: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    birthDate: Type.Optional(Nullable(DateString)),
    position: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    instagram: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    isFormer: Type.Optional(Type.Boolean()),
    nicknames: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 20, uniqueItems: true })),
    sortOrder: Type.Optional(Type.Integer({ minimum: 0, maximum: 10000 })),
  },
  { additionalProperties: false, $id: 'MemberUpdatePayload' },
);
