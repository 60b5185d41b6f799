// One pass of a microblog bot: the account's timeline through the mirror, newest first, down to the
// first post that already has a schedule (a full pass: to the end). New posts go to
// bot.post.collected, oldest first, with the members named in their text.
import type { MicroblogSettings } from '../../schemas/bots.ts';
import { TOPICS, type Bus } from '../../shared/bus/bus.ts';
import type { PostCollected } from '../../shared/collected.ts';
import type { Queryable } from '../../shared/db/database.ts';
import { memberNames, postsWithSchedules } from '../../shared/db/repositories/bots.ts';
import { toSeoulDateTime } from '../../shared/microblog/post-url.ts';
import type { MicroblogPost, MicroblogReader } from './microblog-reader.ts';
import { membersFor, PassAbortedError, type PassResult } from './video-bot.ts';

/** Timeline pages a regular pass reads at most (about 20 posts a page). */
const REGULAR_MAX_PAGES = 10;

export async function collectPosts(
  deps: { db: Queryable; bus: Bus; reader: MicroblogReader },
  bot: { id: string; config: MicroblogSettings },
  options: { full: boolean; signal?: AbortSignal },
): Promise<PassResult> {
  const { db, bus, reader } = deps;
  const { username, groupNames } = bot.config;
  const stored = await postsWithSchedules(db, username);
  // A full pass reads everything and counts what is new itself; a regular one stops at a stored post.
  const posts = options.full
    ? await reader.readTimeline(username, { maxPages: Infinity })
    : await reader.readTimeline(username, { knownPostIds: stored, maxPages: REGULAR_MAX_PAGES });
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
  if (messages.length > 0) await bus.publishMany(messages);
  const newest = posts.reduce<number | null>((max, post) => {
    const at = Date.parse(post.createdAt);
    return Number.isFinite(at) && (max === null || at > max) ? at : max;
  }, null);
  return { added: messages.length, total: posts.length, newestSeen: newest === null ? null : new Date(newest) };
}

/** A post read from the mirror as the calendar records it: its fields and its Asia/Seoul date and time. */
export function postFields(post: MicroblogPost) {
  return {
    postId: post.postId,
    username: post.username,
    displayName: post.displayName,
    text: post.text,
    createdAt: post.createdAt,
    ...toSeoulDateTime(post.createdAt),
    imageUrls: post.imageUrls,
  };
}
