// The `bots` role: loads BOTS_CONFIG, synchronises it into the `bots` table, and runs the bots that
// administrators started, each every intervalMinutes.
//
// One runner is active among all processes: it holds a session-level advisory lock on a dedicated
// connection; the others poll the lock and take over when that session ends. State lives in the
// table, not here: the admin routes (possibly in another process) write `running` or `stopped` and
// NOTIFY; the runner polls every `pollMs` as well, so a lost notification only delays a start.
import { readFile } from 'node:fs/promises';
import { Value } from '@sinclair/typebox/value';
import type { TSchema } from '@sinclair/typebox';
import {
  BotsFile,
  MicroblogBotConfig,
  VideoBotConfig,
  type BotDefinition,
  type MicroblogSettings,
  type VideoSettings,
} from '../../schemas/bots.ts';
import { errorMessage } from '../../shared/bus/bus.ts';
import { startExclusiveLoop, type ExclusiveLoop } from '../../shared/db/exclusive-loop.ts';
import { inSpan, SpanKind, tracing } from '../../shared/runtime/tracing.ts';
import type { Clock } from '../../shared/runtime/clock.ts';
import { ConfigError } from '../../shared/runtime/config.ts';
import type { Db } from '../../shared/db/database.ts';
import {
  BOTS_CHANNEL,
  clearQuotaWarning,
  deferBot,
  dueBots,
  quotaWarning,
  recordBotFailure,
  recordBotSuccess,
  setBotProgress,
  setQuotaWarning,
  syncBotDefinitions,
  type BotProgress,
  type BotRecord,
} from '../../shared/db/repositories/bots.ts';
import type { Logger } from '../../shared/runtime/logger.ts';
import type { Services } from '../../shared/services.ts';
import { QuotaExceededError, VideoPlatformClient } from '../../shared/video/platform-client.ts';
import { nextQuotaResetAt } from '../../shared/video/video-rules.ts';
import { collectPosts } from './microblog-bot.ts';
import { MicroblogReader } from './microblog-reader.ts';
import { collectVideos, PassAbortedError, type PassResult } from './video-bot.ts';

/** Key of the runner's advisory lock (single-bigint form; the migrator uses 7_281_001, the relay 7_281_006). */
const RUNNER_LOCK = 7_281_007;
const DEFAULT_POLL_MS = 2_000;
/** Retries after an error wait 1, 2, 4 … minutes, at most this. */
export const MAX_BACKOFF_MINUTES = 60;

// ---- BOTS_CONFIG ------------------------------------------------------------------------------

function firstError(schema: TSchema, value: unknown, at: string): string | null {
  const error = Value.Errors(schema, value).First();
  if (!error) return null;
  const path = error.path.replace(/^\//, '').replace(/\//g, '.');
  return `${at}${path ? (at ? '.' : '') + path : ''}: ${error.message}`;
}

/** Checks the parsed file and fills in defaults; throws ConfigError('BOTS_CONFIG') naming the first problem. */
export function parseBotDefinitions(raw: unknown): BotDefinition[] {
  const fail = (message: string) => new ConfigError('BOTS_CONFIG', message);
  if (!Array.isArray(raw)) throw fail('expected a JSON array of bots');
  const shapeError = firstError(BotsFile, raw, '');
  if (shapeError) throw fail(`bot ${shapeError}`);
  const seen = new Set<string>();
  return raw.map((entry: { id: string; name: string; type: 'video' | 'microblog'; intervalMinutes: number; config: Record<string, unknown> }, index) => {
    if (seen.has(entry.id)) throw fail(`bot ${index}: duplicate id "${entry.id}"`);
    seen.add(entry.id);
    const configError = firstError(entry.type === 'video' ? VideoBotConfig : MicroblogBotConfig, entry.config, `bot ${index} (${entry.id}) config`);
    if (configError) throw fail(configError);
    const common = { id: entry.id, name: entry.name, intervalMinutes: entry.intervalMinutes };
    if (entry.type === 'video') {
      const config = entry.config as Partial<VideoSettings> & { channelId: string; channelName: string; titleFilter?: { include?: string[]; exclude?: string[] } };
      return {
        ...common,
        type: 'video',
        config: {
          channelId: config.channelId,
          channelName: config.channelName,
          titleFilter: { include: config.titleFilter?.include ?? [], exclude: config.titleFilter?.exclude ?? [] },
          defaultMemberIds: config.defaultMemberIds ?? [],
          extractMembers: config.extractMembers ?? true,
          groupNames: config.groupNames ?? [],
        },
      };
    }
    const config = entry.config as Partial<MicroblogSettings> & { username: string };
    return { ...common, type: 'microblog', config: { username: config.username, groupNames: config.groupNames ?? [] } };
  });
}

/** The bots of the BOTS_CONFIG file; none when it is not set. */
export async function loadBotDefinitions(path: string | null): Promise<BotDefinition[]> {
  if (path === null) return [];
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigError('BOTS_CONFIG', `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? errorMessage(error)}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConfigError('BOTS_CONFIG', `${path} is not valid JSON: ${errorMessage(error)}`);
  }
  return parseBotDefinitions(raw);
}

// ---- one pass ----------------------------------------------------------------------------------

/** A bot that cannot run with this process's configuration (no API key, no mirror). */
export class BotUnavailableError extends Error {
  override readonly name = 'BotUnavailableError';
}

export interface BotDeps {
  db: Db;
  logger: Logger;
  /** GROUP_NAMES: the group's own names, each linking every current member. */
  groupNames: readonly string[];
  clock: Clock;
  /** null when VIDEO_API_KEY is unset. */
  videoClient: VideoPlatformClient | null;
  /** null when MICROBLOG_MIRROR_URL is unset. */
  microblogReader: MicroblogReader | null;
}

/** What a pass needs, from the process's configuration; each process builds its own. */
export function createBotDeps(s: Services): BotDeps {
  const { videoApi, microblog } = s.config;
  return {
    db: s.db,
    groupNames: s.config.groupNames,
    logger: s.logger.child({ component: 'bots' }),
    clock: s.clock,
    videoClient: videoApi.key ? new VideoPlatformClient({ baseUrl: videoApi.url, apiKey: videoApi.key }) : null,
    microblogReader: microblog.mirrorUrl ? new MicroblogReader({ mirrorUrl: microblog.mirrorUrl, executablePath: microblog.chromiumPath }) : null,
  };
}

export const VIDEO_UNAVAILABLE = 'VIDEO_API_KEY가 설정되지 않아 영상 봇을 실행할 수 없습니다.';
export const MICROBLOG_UNAVAILABLE = 'MICROBLOG_MIRROR_URL이 설정되지 않아 마이크로블로그 봇을 실행할 수 없습니다.';

/** Sets the quota warning until the platform's next daily reset; all video bots wait for it. */
export async function recordQuotaExceeded(deps: Pick<BotDeps, 'db' | 'clock' | 'logger'>, error: QuotaExceededError): Promise<Date> {
  const now = new Date(deps.clock.now());
  const resumeAt = nextQuotaResetAt(now);
  await setQuotaWarning(deps.db, { message: error.message, now, resumeAt });
  deps.logger.warn({ resumeAt }, 'video platform quota exhausted: video bots paused');
  return resumeAt;
}

/**
 * One pass of a bot (regular, or `full` for sync-all) and its outcome written to the table: success
 * clears the error and records the check; the quota sets the warning and waits for the reset; any
 * other failure sets `error` with the message and a retry after the backoff. The error is rethrown.
 */
export function runBotPass(deps: BotDeps, bot: BotRecord, options: { full: boolean; signal?: AbortSignal }): Promise<PassResult> {
  if (!tracing) return runPass(deps, bot, options);
  // The pass's span is the root of the trace its collected items follow (bus → schedule writer → indexer).
  return inSpan(`bot pass ${bot.id}`, SpanKind.INTERNAL, { 'bot.id': bot.id, 'bot.type': bot.type, 'bot.full': options.full }, async (span) => {
    const result = await runPass(deps, bot, options);
    span.setAttributes({ 'bot.added': result.added, 'bot.total': result.total });
    return result;
  });
}

async function runPass(deps: BotDeps, bot: BotRecord, options: { full: boolean; signal?: AbortSignal }): Promise<PassResult> {
  // Progress goes to the table, so the bot list shows it whichever process runs the pass.
  const onProgress = (progress: BotProgress) => setBotProgress(deps.db, bot.id, progress);
  const passOptions = { full: options.full, onProgress, ...(options.signal ? { signal: options.signal } : {}) };
  const { groupNames } = deps;
  try {
    let result: PassResult;
    if (bot.type === 'video') {
      if (!deps.videoClient) throw new BotUnavailableError(VIDEO_UNAVAILABLE);
      result = await collectVideos({ db: deps.db, client: deps.videoClient, groupNames }, bot, { ...passOptions, seenUntil: bot.seenUntil });
    } else {
      if (!deps.microblogReader) throw new BotUnavailableError(MICROBLOG_UNAVAILABLE);
      result = await collectPosts({ db: deps.db, reader: deps.microblogReader, groupNames }, bot, passOptions);
    }
    const now = new Date(deps.clock.now());
    await recordBotSuccess(deps.db, bot.id, { added: result.added, now, nextRunAt: new Date(now.getTime() + bot.intervalMinutes * 60_000), seenUntil: result.newestSeen });
    deps.logger.info({ botId: bot.id, full: options.full, added: result.added, total: result.total }, 'bot pass done');
    return result;
  } catch (error) {
    if (error instanceof PassAbortedError) {
      await setBotProgress(deps.db, bot.id, null).catch(() => undefined);
      throw error;
    }
    if (error instanceof QuotaExceededError) {
      // The warning pauses every video bot until the reset (or until an administrator clears it);
      // the bot itself keeps its state and its interval.
      await recordQuotaExceeded(deps, error);
      await deferBot(deps.db, bot.id, new Date(deps.clock.now() + bot.intervalMinutes * 60_000));
    } else {
      deps.logger.warn({ err: error, botId: bot.id }, 'bot pass failed');
      await recordBotFailure(deps.db, bot.id, { message: errorMessage(error), now: new Date(deps.clock.now()), maxBackoffMinutes: MAX_BACKOFF_MINUTES });
    }
    throw error;
  }
}

// ---- the loop ----------------------------------------------------------------------------------

export interface BotRunner {
  /** Stops scheduling, lets passes in flight stop at their next page, releases the lock. */
  stop(): Promise<void>;
}

export interface BotRunnerOptions {
  pollMs?: number;
}


export async function startBotRunner(s: Services, definitions: readonly BotDefinition[], options: BotRunnerOptions = {}): Promise<BotRunner> {
  const deps = createBotDeps(s);
  const { db, logger } = deps;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const synced = await syncBotDefinitions(db, definitions);
  logger.info({ bots: definitions.length, ...synced }, 'bots synchronised from BOTS_CONFIG');
  if (definitions.length === 0) return { stop: async () => undefined }; // no bots: no lock, no loop

  const abort = new AbortController();
  const inFlight = new Map<string, Promise<void>>();
  let loop: ExclusiveLoop | null = null;

  const launch = (bot: BotRecord) => {
    const pass = runBotPass(deps, bot, { full: false, signal: abort.signal }).then(
      () => undefined,
      () => undefined, // recorded in the table and logged by runBotPass
    );
    inFlight.set(bot.id, pass.finally(() => {
      inFlight.delete(bot.id);
      loop?.wake();
    }));
  };

  /** Starts every due bot that is not already running a pass; video bots wait out the quota. */
  const tick = async () => {
    const now = new Date(s.clock.now());
    const warning = await quotaWarning(db);
    const quotaPaused = warning !== null && warning.resumeAt.getTime() > now.getTime();
    if (warning && !quotaPaused) await clearQuotaWarning(db, { expiredAt: now });
    for (const bot of await dueBots(db, now)) {
      if (abort.signal.aborted) return;
      if (inFlight.has(bot.id)) continue;
      if (bot.type === 'video' && quotaPaused) continue;
      launch(bot);
    }
  };

  loop = startExclusiveLoop({
    db,
    logger,
    name: 'bot runner',
    lockKey: RUNNER_LOCK,
    channel: BOTS_CHANNEL,
    pollMs,
    tick: async () => {
      await tick();
    },
    // Passes in flight finish (or see the abort) while this instance still holds the lock.
    beforeRelease: async () => {
      await Promise.all(inFlight.values());
    },
  });
  const running = loop;
  return {
    stop: async () => {
      abort.abort();
      await running.stop();
    },
  };
}
