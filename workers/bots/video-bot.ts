// One pass of a video bot: the channel's uploads, newest first, down to the first video collected
// before (a full pass: every page); the ones that pass the title filter and are new get their
// details (duration → shorts) and go to bot.video.collected through the outbox, where the schedule
// writer stores them. Each video is recorded in collected_items in the same transaction as its
// outbox entry, so `added` counts only videos never collected before, whatever is still in flight.
//
// The walk publishes nothing; the new videos are recorded afterwards, oldest first, one details
// call per 50. A pass cut short (quota, error, shutdown) has then either recorded nothing or the
// oldest part, so the next pass, stopping at the newest video collected, still meets every
// video it left out.
import type { VideoSettings } from '../../schemas/bots.ts';
import { TOPICS } from '../../shared/bus/bus.ts';
import type { VideoCollected } from '../../shared/schedules/collected.ts';
import { withoutControlCharacters } from '../../shared/control-characters.ts';
import type { Queryable } from '../../shared/db/database.ts';
import { knownVideos, memberNames, recordCollected, type BotProgress } from '../../shared/db/repositories/bots.ts';
import type { PlaylistVideo, VideoPlatformClient } from '../../shared/video/platform-client.ts';
import { extractMemberIds, passesTitleFilter, seoulDateTime, videoType, type MemberNames } from '../../shared/video/video-rules.ts';

const DETAILS_BATCH = 50;
/** A regular pass also stops this long before the newest video the last complete pass saw. */
const CURSOR_MARGIN_MS = 86_400_000;

export interface PassResult {
  /** Items never collected before, handed to the schedule writer. */
  added: number;
  /** Items seen that pass the bot's filter (the whole source on a full pass). */
  total: number;
  /** Publication time of the newest item seen; null when the pass saw none. */
  newestSeen: Date | null;
}

export interface VideoPassOptions {
  /** Every page, whatever is already stored (sync-all). */
  full: boolean;
  /** The bot's cursor: a regular pass stops a day before it. */
  seenUntil: Date | null;
  signal?: AbortSignal;
  /** Called after each page and each recorded batch. */
  onProgress?: (progress: BotProgress) => Promise<void> | void;
}

export class PassAbortedError extends Error {
  override readonly name = 'PassAbortedError';
  constructor() {
    super('bot pass aborted by shutdown');
  }
}

/** Members linked to a title or text: extracted names plus the bot's defaults, sorted, unique. */
export function membersFor(text: string, settings: { extract: boolean; members: readonly MemberNames[]; groupNames: readonly string[]; defaults: readonly number[] }): number[] {
  const ids = new Set(settings.defaults);
  if (settings.extract) for (const id of extractMemberIds(text, settings.members, settings.groupNames)) ids.add(id);
  return [...ids].sort((a, b) => a - b);
}

export async function collectVideos(
  deps: { db: Queryable; client: VideoPlatformClient; groupNames?: readonly string[] },
  bot: { id: string; config: VideoSettings },
  options: VideoPassOptions,
): Promise<PassResult> {
  const { db, client } = deps;
  const { config } = bot;
  // The group's own names (GROUP_NAMES) and the bot's extra ones: each links every current member.
  const groupNames = [...new Set([...(deps.groupNames ?? []), ...config.groupNames])];
  let pages = 0;
  const stopBefore = !options.full && options.seenUntil ? options.seenUntil.getTime() - CURSOR_MARGIN_MS : null;
  const playlistId = await client.uploadsPlaylistId(config.channelId, { lookup: false });

  // 1. Walk the uploads, newest first.
  const fresh: PlaylistVideo[] = [];
  const freshIds = new Set<string>();
  let total = 0;
  let newest: number | null = null;
  let pageToken: string | undefined;
  walk: do {
    if (options.signal?.aborted) throw new PassAbortedError();
    const page = await client.listPlaylistItems(playlistId, pageToken);
    pages++;
    const stored = await knownVideos(db, page.items.map((item) => item.videoId));
    for (const item of page.items) {
      const publishedAt = Date.parse(item.publishedAt);
      if (Number.isFinite(publishedAt) && (newest === null || publishedAt > newest)) newest = publishedAt;
      if (!options.full && (stored.has(item.videoId) || (stopBefore !== null && publishedAt < stopBefore))) break walk;
      if (!passesTitleFilter(item.title, config.titleFilter)) continue;
      total++;
      if (stored.has(item.videoId) || freshIds.has(item.videoId)) continue;
      freshIds.add(item.videoId);
      fresh.push(item);
    }
    pageToken = page.nextPageToken;
    await options.onProgress?.({ phase: 'listing', pages, seen: total, added: 0 });
  } while (pageToken !== undefined);

  // 2. Details and publication, oldest first.
  fresh.reverse();
  const members = config.extractMembers ? await memberNames(db) : [];
  let added = 0;
  for (let start = 0; start < fresh.length; start += DETAILS_BATCH) {
    if (options.signal?.aborted) throw new PassAbortedError();
    const batch = fresh.slice(start, start + DETAILS_BATCH);
    const details = new Map((await client.getVideos(batch.map((video) => video.videoId))).map((video) => [video.videoId, video]));
    const messages = batch.flatMap((item) => {
      const video = details.get(item.videoId);
      if (!video) return []; // made private or deleted since the walk
      const publishedAt = video.publishedAt || item.publishedAt;
      // Platform text without control characters: a NUL cannot even travel on the bus (jsonb).
      const title = withoutControlCharacters(video.title || item.title);
      const value: VideoCollected = {
        videoId: item.videoId,
        title,
        description: withoutControlCharacters(video.description),
        channelId: config.channelId,
        channelName: config.channelName,
        publishedAt,
        ...seoulDateTime(publishedAt),
        thumbnailUrl: video.thumbnailUrl ?? item.thumbnailUrl,
        videoType: videoType(video),
        memberIds: membersFor(title, { extract: config.extractMembers, members, groupNames, defaults: config.defaultMemberIds }),
        botId: bot.id,
      };
      return [{ topic: TOPICS.videoCollected, key: item.videoId, value }];
    });
    added += await recordCollected(db, { platform: 'video', source: config.channelId, botId: bot.id, items: messages });
    await options.onProgress?.({ phase: 'collecting', pages, seen: total, added });
  }
  return { added, total, newestSeen: newest === null ? null : new Date(newest) };
}
