// General schedules written by an administrator: the JSON body, or the multipart
// `payload` part, of POST and PUT /api/schedules.
import { Type } from '@sinclair/typebox';
import { DateString, HttpUrl, IdParam, Nullable, TimeString } from './common.ts';

const fields = {
  categoryId: IdParam,
  title: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
  date: DateString,
  time: Type.Optional(Nullable(Type.Union([TimeString, Type.Literal('')]))),
  description: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
  source: Type.Optional(Nullable(Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }), url: Type.Optional(Nullable(HttpUrl)) }, { additionalProperties: false }))),
  memberIds: Type.Optional(Type.Array(IdParam, { maxItems: 50, uniqueItems: true })),
};

export const ScheduleCreatePayload = Type.Object(fields, { additionalProperties: false, $id: 'ScheduleCreatePayload' });

/** PUT replaces: the same fields; `keepImageIds` are existing image ids to keep, in order (absent: none kept). */
export const ScheduleUpdatePayload = Type.Object(
  { ...fields, keepImageIds: Type.Optional(Type.Array(IdParam, { maxItems: 20, uniqueItems: true })) },
  { additionalProperties: false, $id: 'ScheduleUpdatePayload' },
);
