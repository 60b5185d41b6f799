// Bots and platform records (api-service.md 4.5, 4.6; decisions.md "Bots and platform records"):
// the BOTS_CONFIG file, the bot list, and the admin routes that look up and save videos and posts.
import { Type } from '@sinclair/typebox';
import { DateString, IdParam, Nullable, TimeString } from './common.ts';

export const BOT_TYPES = ['video', 'microblog'] as const;
export const BOT_STATUSES = ['running', 'stopped', 'error'] as const;

export const BotId = Type.String({ pattern: '^[a-z0-9-]+$', minLength: 1, maxLength: 64 });
const Term = Type.String({ maxLength: 100 });
const GroupNames = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  maxItems: 20,
  description: 'names of the group: one in a title or post links every current member (default none)',
});

// ---- BOTS_CONFIG ------------------------------------------------------------------------------

/** Video bot settings; the optional fields default to an empty filter, no default members, extraction on. */
export const VideoBotConfig = Type.Object(
  {
    channelId: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }),
    channelName: Type.String({ minLength: 1, maxLength: 200 }),
    titleFilter: Type.Optional(
      Type.Object(
        {
          include: Type.Optional(Type.Array(Term, { maxItems: 100 })),
          exclude: Type.Optional(Type.Array(Term, { maxItems: 100 })),
        },
        { additionalProperties: false },
      ),
    ),
    defaultMemberIds: Type.Optional(Type.Array(IdParam, { maxItems: 50, uniqueItems: true })),
    extractMembers: Type.Optional(Type.Boolean()),
    groupNames: Type.Optional(GroupNames),
  },
  { additionalProperties: false },
);

export const MicroblogBotConfig = Type.Object(
  {
    username: Type.String({ pattern: '^[A-Za-z0-9_]{1,15}$' }),
    groupNames: Type.Optional(GroupNames),
  },
  { additionalProperties: false },
);

/** One entry of the BOTS_CONFIG array; `config` is checked against the schema of its `type` next. */
export const BotDefinitionEntry = Type.Object(
  {
    id: BotId,
    name: Type.String({ minLength: 1, maxLength: 100 }),
    type: Type.Union(BOT_TYPES.map((type) => Type.Literal(type))),
    intervalMinutes: Type.Integer({ minimum: 1, maximum: 10_080 }),
    config: Type.Object({}),
  },
  { additionalProperties: false },
);

export const BotsFile = Type.Array(BotDefinitionEntry, { maxItems: 200 });

/** Settings as stored in `bots.config` and shown in the list: every default filled in. */
export interface VideoSettings {
  channelId: string;
  channelName: string;
  titleFilter: { include: string[]; exclude: string[] };
  defaultMemberIds: number[];
  extractMembers: boolean;
  groupNames: string[];
}

export interface MicroblogSettings {
  username: string;
  groupNames: string[];
}

export type BotDefinition =
  | { id: string; name: string; type: 'video'; intervalMinutes: number; config: VideoSettings }
  | { id: string; name: string; type: 'microblog'; intervalMinutes: number; config: MicroblogSettings };

// ---- responses ----------------------------------------------------------------------------------

const Instant = Type.String({ format: 'date-time' });

export const Bot = Type.Object({
  id: BotId,
  name: Type.String(),
  type: Type.Union(BOT_TYPES.map((type) => Type.Literal(type))),
  status: Type.Union(BOT_STATUSES.map((status) => Type.Literal(status)), {
    description: 'running: runs every intervalMinutes; stopped: started by nobody; error: the last run failed, retried after 1, 2, 4 … 60 minutes (nextRunAt)',
  }),
  intervalMinutes: Type.Integer(),
  lastCheckAt: Nullable(Instant),
  lastAddedCount: Type.Integer(),
  scheduleCount: Type.Integer({ description: "schedules whose platform record came from this bot's channel or account" }),
  errorMessage: Nullable(Type.String()),
  nextRunAt: Nullable(Instant),
  config: Type.Union([VideoBotConfig, MicroblogBotConfig]),
  progress: Type.Union([
    Type.Object({
      phase: Type.Union([Type.Literal('listing'), Type.Literal('collecting')], { description: "listing: reading the source's pages; collecting: handing new items to the schedule writer" }),
      pages: Type.Integer({ description: 'pages of the source read so far' }),
      seen: Type.Integer({ description: "items seen so far that pass the bot's filter" }),
      added: Type.Integer({ description: 'items never collected before, handed to the schedule writer so far' }),
    }),
    Type.Null(),
  ], { description: 'the pass running now (a regular run or sync-all, in any process); null when none runs' }),
});

export const BotStatusResponse = Type.Object({ success: Type.Literal(true), status: Type.Union(BOT_STATUSES.map((status) => Type.Literal(status))) });
export const SyncAllResponse = Type.Object({
  success: Type.Literal(true),
  added: Type.Integer({ description: 'items never collected before (each item is recorded once), handed to the schedule writer; 0 on an immediate second call' }),
  total: Type.Integer({ description: "items of the source that pass the bot's filter" }),
});

export const QuotaWarning = Type.Object({
  active: Type.Boolean(),
  message: Nullable(Type.String()),
  since: Nullable(Instant),
  resumeAt: Nullable(Instant),
});

// ---- video and post administration ------------------------------------------------------------

export const UrlQuery = Type.Object({ url: Type.String({ minLength: 1, maxLength: 2048 }) });

export const VideoInfo = Type.Object({
  videoId: Type.String(),
  title: Type.String(),
  channelId: Type.String(),
  channelName: Type.String(),
  publishedAt: Instant,
  date: DateString,
  time: TimeString,
  thumbnailUrl: Nullable(Type.String()),
  videoType: Type.Union([Type.Literal('video'), Type.Literal('shorts')]),
  existingScheduleId: Nullable(Type.Integer()),
});

const VideoId = Type.String({ pattern: '^[A-Za-z0-9_-]{11}$' });
const HttpsUrl = Type.String({ pattern: '^https?://[^\\s]+$', maxLength: 2000 });
const Title = Type.String({ minLength: 1, maxLength: 200 });
const Description = Type.String({ maxLength: 10_000 });
const MemberIds = Type.Array(IdParam, { maxItems: 50, uniqueItems: true });
/** PUT: null or an empty string clears the time. */
const OptionalTime = Nullable(Type.Union([TimeString, Type.Literal('')]));

/** The video-info fields, the editable ones possibly changed by the administrator. */
export const VideoScheduleCreate = Type.Object({
  videoId: VideoId,
  title: Title,
  date: DateString,
  time: TimeString,
  channelId: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  channelName: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  publishedAt: Type.Optional(Nullable(Instant)),
  thumbnailUrl: Type.Optional(Nullable(HttpsUrl)),
  videoType: Type.Optional(Type.Union([Type.Literal('video'), Type.Literal('shorts')])),
  memberIds: Type.Optional(MemberIds),
  description: Type.Optional(Description),
});

export const VideoScheduleUpdate = Type.Object({
  title: Type.Optional(Title),
  date: Type.Optional(DateString),
  time: Type.Optional(OptionalTime),
  memberIds: Type.Optional(MemberIds),
  description: Type.Optional(Nullable(Description)),
});

export const PostInfo = Type.Object({
  postId: Type.String(),
  username: Type.String(),
  displayName: Type.String(),
  text: Type.String(),
  createdAt: Instant,
  date: DateString,
  time: TimeString,
  imageUrls: Type.Array(Type.String()),
  existingScheduleId: Nullable(Type.Integer()),
});

export const PostScheduleCreate = Type.Object({
  postId: Type.String({ pattern: '^[1-9][0-9]{0,18}$' }),
  username: Type.String({ pattern: '^[A-Za-z0-9_]{1,15}$' }),
  displayName: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  text: Type.String({ maxLength: 10_000 }),
  date: DateString,
  time: TimeString,
  createdAt: Type.Optional(Nullable(Instant)),
  imageUrls: Type.Optional(Type.Array(HttpsUrl, { maxItems: 10 })),
  memberIds: Type.Optional(MemberIds),
});
