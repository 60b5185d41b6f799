// One pass of a microblog bot: the account's timeline through the mirror, newest first, down to the
// first post collected before (a full pass: to the end). New posts go to bot.post.collected through
// the outbox, oldest first, with the members named in their text; each is recorded in
// collected_items in the same transaction, so `added` counts only posts never collected before.
import type { MicroblogSettings } from '../../schemas/bots.ts';
import { TOPICS } from '../../shared/bus/bus.ts';
import type { PostCollected } from '../../shared/schedules/collected.ts';
import { withoutControlCharacters } from '../../shared/control-characters.ts';
import type { Queryable } from '../../shared/db/database.ts';
import { knownPosts, memberNames, recordCollected, type BotProgress } from '../../shared/db/repositories/bots.ts';
import { toSeoulDateTime } from '../../shared/microblog/post-url.ts';
import type { MicroblogPost, MicroblogReader } from './microblog-reader.ts';
import { membersFor, PassAbortedError, type PassResult } from './video-bot.ts';

/** Timeline pages a regular pass reads at most (about 20 posts a page). */
const REGULAR_MAX_PAGES = 10;

export async function collectPosts(
  deps: { db: Queryable; reader: MicroblogReader; groupNames?: readonly string[] },
  bot: { id: string; config: MicroblogSettings },
  options: { full: boolean; signal?: AbortSignal; onProgress?: (progress: BotProgress) => Promise<void> | void },
): Promise<PassResult> {
  const { db, reader } = deps;
  const { username } = bot.config;
  const groupNames = [...new Set([...(deps.groupNames ?? []), ...bot.config.groupNames])];
  const stored = await knownPosts(db, username);
  await options.onProgress?.({ phase: 'listing', pages: 0, seen: 0, added: 0 });
  // A full pass reads everything and counts what is new itself; a regular one stops at a stored post.
  let pages = 0;
  const onPage = async (read: number, seen: number) => {
    pages = read;
    await options.onProgress?.({ phase: 'listing', pages, seen, added: 0 });
  };
  const posts = options.full
    ? await reader.readTimeline(username, { maxPages: Infinity, onPage })
    : await reader.readTimeline(username, { knownPostIds: stored, maxPages: REGULAR_MAX_PAGES, onPage });
  if (options.signal?.aborted) throw new PassAbortedError();

  const fresh = posts.filter((post) => !stored.has(post.postId)).reverse();
  const members = fresh.length > 0 ? await memberNames(db) : [];
  const messages = fresh.map((post) => {
    const value: PostCollected = {
      ...postFields(post),
      memberIds: membersFor(post.text, { extract: true, members, groupNames, defaults: [] }),
      botId: bot.id,
    };
    return { topic: TOPICS.postCollected, key: post.postId, value };
  });
  await options.onProgress?.({ phase: 'collecting', pages, seen: posts.length, added: 0 });
  const added = await recordCollected(db, { platform: 'post', source: username.toLowerCase(), botId: bot.id, items: messages });
  const newest = posts.reduce<number | null>((max, post) => {
    const at = Date.parse(post.createdAt);
    return Number.isFinite(at) && (max === null || at > max) ? at : max;
  }, null);
  return { added, total: posts.length, newestSeen: newest === null ? null : new Date(newest) };
}

/**
 * A post read from the mirror as the calendar records it: its fields (text without control
 * characters: a NUL cannot even travel on the bus) and its Asia/Seoul date and time.
 */
export function postFields(post: MicroblogPost) {
  return {
    postId: post.postId,
    username: post.username,
    displayName: post.displayName === null ? null : withoutControlCharacters(post.displayName),
    text: withoutControlCharacters(post.text),
    createdAt: post.createdAt,
    ...toSeoulDateTime(post.createdAt),
    imageUrls: post.imageUrls,
  };
}
