// Public schedule shapes (decisions.md "Schedules", api-service.md 2.6).
import { Type } from '@sinclair/typebox';
import { DateString, IdParam, Nullable } from './common.ts';
import { PosterImage, Venue } from './events.ts';

export const Category = Type.Object({ id: Type.Integer(), name: Type.String(), color: Type.String() });
export const CategoryListItem = Type.Object({ id: Type.Integer(), name: Type.String(), color: Type.String(), sortOrder: Type.Integer() });

/** A calendar entry's id: a schedule's number, or `birthday-<memberId>-<year>` for a member's birthday. */
export const ScheduleItemId = Type.Union([IdParam, Type.String({ pattern: '^birthday-\\d{1,10}-\\d{4}$' })]);

export const ScheduleItem = Type.Object(
  {
    id: Type.Union([Type.Integer(), Type.String({ pattern: '^birthday-\\d+-\\d{4}$' })]),
    title: Type.String(),
    date: DateString,
    time: Nullable(Type.String({ pattern: '^\\d{2}:\\d{2}$' })),
    category: Category,
    source: Nullable(Type.Object({ name: Type.String(), url: Nullable(Type.String()) })),
    members: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
    isBirthday: Type.Optional(Type.Literal(true)),
    subtype: Type.Optional(Type.String()),
    schoolName: Type.Optional(Nullable(Type.String())),
    venue: Type.Optional(Nullable(Venue)),
    posters: Type.Optional(Type.Array(PosterImage)),
    postUrls: Type.Optional(Type.Array(Type.String())),
  },
  { $id: 'ScheduleItem', description: 'Event items (category 11) add subtype, schoolName, venue, posters, postUrls; their source.name is the school name.' },
);

export const MonthlyListing = Type.Object({ year: Type.Integer(), month: Type.Integer({ minimum: 1, maximum: 12 }), schedules: Type.Array(ScheduleItem) });
export const SearchResults = Type.Object({
  schedules: Type.Array(ScheduleItem),
  total: Type.Integer(),
  hasMore: Type.Boolean(),
  ignoredWords: Type.Optional(
    Type.Array(Type.String(), {
      description:
        'Present only when no schedule matches every word of the query: the words the results on this page leave out. Words matching nothing are left out first; when the rest still match nothing together, the schedules matching all of them but one come (of three words or more, each word left out in turn, listed in the order they are left out: digits first, then the shortest, the last typed first), then fewer. Each result matches every word not named here.',
    }),
  ),
});

export const ScheduleListQuery = Type.Object({
  year: Type.Optional(Type.Integer({ minimum: 1900, maximum: 2999, description: 'default: this year in Asia/Seoul' })),
  month: Type.Optional(Type.Integer({ minimum: 1, maximum: 12, description: 'default: this month in Asia/Seoul' })),
  search: Type.Optional(Type.String({ maxLength: 200, description: 'search instead of listing a month' })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 10000, default: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
});

export const ScheduleDetail = Type.Intersect([
  ScheduleItem,
  Type.Object({
    description: Nullable(Type.String()),
    images: Type.Array(PosterImage),
    video: Type.Optional(Type.Object({ videoId: Type.String(), channelName: Nullable(Type.String()), videoType: Type.String() })),
    post: Type.Optional(Type.Object({ postId: Type.String(), username: Type.String(), imageUrls: Type.Array(Type.String()) })),
  }),
]);

export const SyncSearchResponse = Type.Object({ success: Type.Literal(true), synced: Type.Integer() });

export const Stats = Type.Object({
  members: Type.Integer(),
  albums: Type.Integer(),
  tracks: Type.Integer(),
  photos: Type.Integer(),
  schedules: Type.Integer(),
  schedulesByCategory: Type.Array(Type.Object({ categoryId: Type.Integer(), name: Type.String(), count: Type.Integer() })),
  schedulesByYear: Type.Array(Type.Object({ year: Type.Integer(), count: Type.Integer() })),
  bots: Type.Object({ total: Type.Integer(), running: Type.Integer() }),
});
