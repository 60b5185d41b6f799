// Event administration (api-service.md 4.7): the multipart `payload` part and the responses.
import { Type } from '@sinclair/typebox';
import { DateString, HttpUrl, IdParam, Nullable, TimeString } from './common.ts';

export const EVENT_CATEGORY_ID = 11;
export const EVENT_SUBTYPES = ['university'] as const;

export const VenueInput = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  // Absent or null: a matched venue keeps its stored value (docs/decisions.md, "Venues").
  address: Type.Optional(Nullable(Type.String({ maxLength: 300 }))),
  roadAddress: Type.Optional(Nullable(Type.String({ maxLength: 300 }))),
  lat: Type.Optional(Nullable(Type.Number({ minimum: -90, maximum: 90 }))),
  lng: Type.Optional(Nullable(Type.Number({ minimum: -180, maximum: 180 }))),
  map_id: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
});

export const Venue = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    address: Type.String(),
    roadAddress: Type.String(),
    lat: Nullable(Type.Number()),
    lng: Nullable(Type.Number()),
    map_id: Nullable(Type.String()),
  },
  { $id: 'Venue' },
);


const eventFields = {
  title: Type.String({ minLength: 1, maxLength: 200 }),
  date: DateString,
  time: Type.Optional(Nullable(Type.Union([TimeString, Type.Literal('')]))),
  subtype: Type.Optional(Type.String({ enum: [...EVENT_SUBTYPES] })),
  schoolName: Type.String({ maxLength: 200 }),
  memberIds: Type.Optional(Type.Array(IdParam, { maxItems: 50, uniqueItems: true })),
  postUrls: Type.Optional(Type.Array(HttpUrl, { maxItems: 20 })),
};

/** POST: title, date, schoolName and venue are required (rules 2 and 4). */
export const EventCreatePayload = Type.Object({ ...eventFields, venue: VenueInput }, { $id: 'EventCreatePayload' });

/** PUT: no required fields; `keepPosterIds` are existing poster ids to keep, in order. */
export const EventUpdatePayload = Type.Object({
  title: Type.Optional(eventFields.title),
  date: Type.Optional(eventFields.date),
  time: eventFields.time,
  subtype: eventFields.subtype,
  schoolName: Type.Optional(Nullable(eventFields.schoolName)),
  memberIds: eventFields.memberIds,
  postUrls: Type.Optional(Nullable(Type.Array(HttpUrl, { maxItems: 20 }))),
  venue: Type.Optional(Nullable(VenueInput)),
  keepPosterIds: Type.Optional(Type.Array(IdParam, { maxItems: 20, uniqueItems: true })),
}, { $id: 'EventUpdatePayload' });

export const PosterImage = Type.Object({ id: Type.Integer(), originalUrl: Type.String(), mediumUrl: Type.String(), thumbUrl: Type.String() }, { $id: 'Image' });

export const AdminEvent = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  date: DateString,
  time: Type.String({ description: 'HH:MM, or empty string when absent' }),
  subtype: Type.String(),
  schoolName: Type.String(),
  memberIds: Type.Array(Type.Integer()),
  venue: Nullable(Venue),
  postUrls: Type.Array(Type.String()),
  posters: Type.Array(PosterImage),
});

export const IdResponse = Type.Object({ id: Type.Integer() });
