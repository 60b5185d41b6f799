// What an administrator does with the bots and the platforms (api-service.md 4.5 and 4.6): start
// and stop (only the wanted state is written: the runner of the `bots` role, possibly in another
// process, follows the table), a full synchronisation run in this process, the quota warning, and
// the lookups of one video or post. Lookups never fetch an address the caller gives: the video id
// or post reference is read through the configured API or mirror.
import { logActivity } from '../../shared/db/repositories/activity-log.ts';
import {
  botById,
  clearQuotaWarning,
  listBots,
  quotaWarning,
  scheduleIdOfPost,
  scheduleIdOfVideo,
  setBotStatus,
  type BotListItem,
} from '../../shared/db/repositories/bots.ts';
import { SingleFlight } from '../../shared/runtime/single-flight.ts';
import type { Services } from '../../shared/services.ts';
import { QuotaExceededError, type VideoDetails } from '../../shared/video/platform-client.ts';
import { seoulDateTime, videoType } from '../../shared/video/video-rules.ts';
import { BotUnavailableError, createBotDeps, MICROBLOG_UNAVAILABLE, recordQuotaExceeded, runBotPass, VIDEO_UNAVAILABLE, type BotDeps } from './bot-runner.ts';
import { postFields } from './microblog-bot.ts';
import type { PassResult } from './video-bot.ts';

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

export interface QuotaWarningState {
  active: boolean;
  message: string | null;
  since: string | null;
  resumeAt: string | null;
}

export class BotAdmin {
  readonly #fullPasses = new SingleFlight<PassResult>();
  private readonly deps: BotDeps;

  constructor(private readonly s: Services) {
    this.deps = createBotDeps(s);
  }

  list(): Promise<BotListItem[]> {
    return listBots(this.s.db);
  }

  /** Writes the wanted state and logs it; null when there is no such bot. */
  setStatus(id: string, status: 'running' | 'stopped') {
    const { s } = this;
    return s.db.tx('bot-status', async (tx) => {
      const row = await setBotStatus(tx, id, status, new Date(s.clock.now()));
      if (row) {
        await logActivity(tx, { actor: 'admin', action: 'update', category: 'bot', targetType: 'bot', targetId: id, summary: `봇 '${row.name}' ${status === 'running' ? '시작' : '정지'}` });
      }
      return row;
    });
  }

  /**
   * A full pass of the bot; null when there is no such bot. Background work, not part of the
   * request: a client that disconnects (or times out on a large channel) does not stop the pass,
   * shutdown waits for it, and the bot list shows its progress.
   */
  async syncAll(id: string): Promise<PassResult | null> {
    const { s } = this;
    const bot = await botById(s.db, id);
    if (!bot) return null;
    // A call while this bot's full pass runs joins it: the platform's quota is read once.
    const { result: pass, joined } = this.#fullPasses.run(id, async () => {
      const result = await runBotPass(this.deps, bot, { full: true });
      await logActivity(s.db, { actor: 'admin', action: 'update', category: 'bot', targetType: 'bot', targetId: id, summary: `봇 '${bot.name}' 전체 동기화: ${result.added}건 추가` });
      return result;
    });
    if (!joined) s.background.run(`sync-all ${id}`, () => pass.catch(() => undefined)); // failures are recorded and logged by runBotPass
    return pass;
  }

  async quotaWarning(): Promise<QuotaWarningState> {
    const warning = await quotaWarning(this.s.db);
    const active = warning !== null && warning.resumeAt.getTime() > this.s.clock.now();
    return {
      active,
      message: active ? warning.message : null,
      since: active ? iso(warning.since) : null,
      resumeAt: active ? iso(warning.resumeAt) : null,
    };
  }

  /** Clears the warning (video bots resume), logged when there was one. */
  async clearQuotaWarning(): Promise<void> {
    if (await clearQuotaWarning(this.s.db)) {
      await logActivity(this.s.db, { actor: 'admin', action: 'delete', category: 'bot', targetType: 'quota_warning', targetId: 1, summary: '영상 플랫폼 할당량 경고 해제' });
    }
  }

  /** One video through the platform API with its schedule, if any; null when the platform has none. */
  async lookupVideo(videoId: string) {
    const client = this.deps.videoClient;
    if (!client) throw new BotUnavailableError(VIDEO_UNAVAILABLE);
    const [video] = await client.getVideos([videoId]).catch((error: unknown) => this.noteQuota(error));
    if (!video) return null;
    return { ...videoInfo(videoId, video), existingScheduleId: await scheduleIdOfVideo(this.s.db, videoId) };
  }

  /** One post through the mirror with its schedule, if any. */
  async lookupPost(ref: { username: string; postId: string }) {
    const reader = this.deps.microblogReader;
    if (!reader) throw new BotUnavailableError(MICROBLOG_UNAVAILABLE);
    const post = await reader.readPost(ref.username, ref.postId);
    return { ...postFields(post), existingScheduleId: await scheduleIdOfPost(this.s.db, post.postId) };
  }

  /** An exhausted quota also sets the warning that pauses the video bots. */
  private async noteQuota(error: unknown): Promise<never> {
    if (error instanceof QuotaExceededError) await recordQuotaExceeded(this.deps, error);
    throw error;
  }
}

function videoInfo(videoId: string, video: VideoDetails) {
  return {
    videoId,
    title: video.title,
    channelId: video.channelId,
    channelName: video.channelTitle,
    publishedAt: video.publishedAt,
    ...seoulDateTime(video.publishedAt),
    thumbnailUrl: video.thumbnailUrl,
    videoType: videoType(video),
  };
}
