// One replica's live calendar (docs/live.md, "One replica"): it follows the change log in seq
// order and hands each change to the channels watching its months, and it brings a resuming
// subscriber up to date before the subscriber joins. Woken by this replica's writes, by every
// schedule.changed message the bus brings (any replica's, a bot's, the seed's), and by a poll.
//
// Nothing is missed or repeated: `delivered` only grows, every fan-out happens synchronously with
// its advance, and a subscriber joins (its channel registered) synchronously at the moment its
// own replay cursor equals `delivered`.
import type { Db } from '../db/database.ts';
import type { MonthlyCache } from '../cache/monthly-cache.ts';
import type { Category } from '../db/repositories/schedules.ts';
import { FailureStreak } from '../runtime/failure-streak.ts';
import type { Logger } from '../runtime/logger.ts';
import { birthdayCategory, categoriesLoader } from '../schedules/calendar.ts';
import { changesAfter, compactedRow, logBounds, replayPage, type LiveRow } from './change-log.ts';
import { collapseResets, messagesOf, type LiveMessage } from './messages.ts';

/** Subscribers watching one set of months through one transport: a uWS topic, or one SSE stream. */
export interface Channel {
  readonly months: readonly string[];
  send(message: LiveMessage): void;
}

export interface HubOptions {
  db: Db;
  logger: Logger;
  monthlyCache: MonthlyCache;
  /** The fallback poll when no wake-up came (default 1 s). */
  pollMs?: number;
  /** Rows read per round (default 500). */
  batch?: number;
  /** Told of each change fanned out: its lag from the write, in seconds. */
  observeLag?: (seconds: number) => void;
}

export interface JoinHandlers {
  replay(message: LiveMessage): void;
  /** Called synchronously once caught up: must attach the subscriber's channel before returning. */
  live(outcome: JoinOutcome): void;
  /** The client left (or was dropped): the catch-up ends. */
  gone(): boolean;
  /** A message the subscriber already has. */
  skip?(message: LiveMessage): boolean;
  /** Resolves when what the replay sent so far has mostly left the process. */
  drained?(): Promise<void>;
  /** Pays for a page of replay (at most `rows` rows) from the client's budget; false: it goes live with a reset instead. */
  afford?(source: ReplaySource, rows: number): boolean;
}

/** Where a resume's replay comes from: the hub's memory of recent rows, or PostgreSQL. */
export type ReplaySource = 'memory' | 'database';

interface SharedPage {
  prunedThrough: number;
  messages: LiveMessage[];
  /** Where the next page starts. */
  through: number;
}

/** How a subscriber's catch-up ended: live from `seq`; `reset` when what it missed is no longer kept. */
export type JoinOutcome = { seq: number; reset: boolean };

const REPLAY_PAGE = 500;
/** Messages a replay sends to one subscriber in one turn of the event loop: other work (a /healthz, another socket) runs between turns. */
const REPLAY_STEP = 100;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Rows kept in memory for replays (about 1 KB each). */
const RECENT_ROWS = 2_000;
/** Longest a resuming subscriber waits for this replica to reach a seq another replica already sent. */
const REACH_TIMEOUT_MS = 5_000;

export class LiveHub {
  private delivered = 0;
  /**
   * The newest rows fanned out, in order: every row in (recentFrom, delivered]. A subscriber back
   * from a short absence (its replica stopped, its network blinked) is replayed from here without
   * a query, so a replica's clients reconnecting elsewhere all at once cost the database nothing.
   */
  private recent: LiveRow[] = [];
  private recentFrom = 0;
  private birthdays: Category = birthdayCategory([]);
  private readonly byMonth = new Map<string, Set<Channel>>();
  private readonly channels = new Set<Channel>();
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private waiters: Array<{ seq: number; resolve: () => void }> = [];
  private categoryGeneration = 0;
  /** The messages of rows in memory, made once (for the fan-out) and reused by every replay. */
  private readonly messageCache = new WeakMap<LiveRow, LiveMessage[]>();
  private readonly pages = new Map<string, Promise<SharedPage>>();
  private nextBounds: { promise: Promise<{ latest: number; prunedThrough: number }>; resolve: (value: { latest: number; prunedThrough: number }) => void; reject: (error: unknown) => void } | null = null;
  private boundsRunning = false;
  private readonly categories: () => Promise<Array<Category & { sortOrder: number }>>;
  /** A database away is one line when reading first fails (without a stack) and one when it works again. */
  private failures: FailureStreak | null = null;
  /** Run after each round's fan-out (the WebSocket transport checks its sockets' backlog there). */
  readonly afterRound: Array<() => void> = [];

  constructor(private readonly options: HubOptions) {
    this.categories = categoriesLoader(options.db, () => this.categoryGeneration);
  }

  /** Reads where the log stands; changes written from then on are fanned out. */
  async start(): Promise<void> {
    this.delivered = this.recentFrom = (await logBounds(this.options.db)).latest;
    const poll = () => {
      this.timer = setTimeout(() => {
        this.wake();
        poll();
      }, this.options.pollMs ?? 1_000);
      this.timer.unref();
    };
    poll();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    for (const waiter of this.waiters) waiter.resolve();
    this.waiters = [];
    await this.running;
  }

  /** The newest seq fanned out by this replica. */
  get latest(): number {
    return this.delivered;
  }

  /** Months some channel watches. */
  watchedMonths(): ReadonlySet<string> {
    return new Set(this.byMonth.keys());
  }

  /** Reads the log now (after a write, a bus message); rounds never overlap, a wake during one runs another. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          while (!this.stopped && (await this.round()));
          this.failures?.succeeded();
        } catch (error) {
          // The poll tries again.
          (this.failures ??= new FailureStreak(this.options.logger, 'live: reading the change log')).failed(error);
        }
      } while (this.again && !this.stopped);
      this.running = null;
    })();
  }

  /** One read and its fan-out; true when a full batch suggests more. */
  private async round(): Promise<boolean> {
    const batch = this.options.batch ?? 500;
    const rows = await changesAfter(this.options.db, this.delivered, batch);
    if (rows.length === 0) return false;
    if (rows.some((row) => row.kind === 'reset')) this.categoryGeneration++;
    const category = (this.birthdays = birthdayCategory(await this.categories()));
    // From here to the end, synchronous: the fan-out and the advance of `delivered` are one step.
    if (rows[0]!.seq <= this.delivered) return true; // another round ran meanwhile (cannot, rounds are serial; kept as a guard)
    this.invalidate(rows);
    this.forget(rows);
    const watched = this.watchedMonths();
    const messages = collapseResets(rows.flatMap((row) => this.messagesFor(row, watched, category)));
    for (const message of messages) this.fanOut(message);
    this.delivered = rows.at(-1)!.seq;
    this.recent.push(...rows);
    if (this.recent.length > RECENT_ROWS) this.recentFrom = this.recent.splice(0, this.recent.length - RECENT_ROWS).at(-1)!.seq;
    for (const after of this.afterRound) after();
    this.release();
    return rows.length === batch;
  }

  /** This replica's cached months drop before a subscriber hears of the change, so its refetch reads it. */
  private invalidate(rows: LiveRow[]): void {
    const cache = this.options.monthlyCache;
    for (const row of rows) {
      if (row.kind === 'reset' || row.kind === 'birthday') cache.invalidateAll();
      else for (const month of row.months) cache.invalidate(Number(month.slice(0, 4)), Number(month.slice(5, 7)));
    }
  }

  private fanOut(message: LiveMessage): void {
    const targets = new Set<Channel>();
    if (message.type === 'reset') for (const channel of this.channels) targets.add(channel);
    else for (const month of message.months) for (const channel of this.byMonth.get(month) ?? []) targets.add(channel);
    if (targets.size === 0) return;
    for (const channel of targets) channel.send(message);
    this.options.observeLag?.(Math.max(0, Date.now() - message.writtenAt) / 1000);
  }

  private release(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const waiter of waiting) {
      if (this.delivered >= waiter.seq) waiter.resolve();
      else this.waiters.push(waiter);
    }
  }

  /** Resolves once this replica has fanned out `seq` (or after a bound: the caller checks). */
  private reach(seq: number): Promise<void> {
    if (this.delivered >= seq || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, REACH_TIMEOUT_MS);
      this.waiters.push({ seq, resolve: () => (clearTimeout(timer), resolve()) });
      this.wake();
    });
  }

  private register(channel: Channel): void {
    this.channels.add(channel);
    for (const month of channel.months) {
      let set = this.byMonth.get(month);
      if (!set) this.byMonth.set(month, (set = new Set()));
      set.add(channel);
    }
  }

  unregister(channel: Channel): void {
    if (!this.channels.delete(channel)) return;
    for (const month of channel.months) {
      const set = this.byMonth.get(month);
      set?.delete(channel);
      if (set?.size === 0) this.byMonth.delete(month);
    }
  }

  /** Starts sending this channel the changes of its months (and every reset) from the next round on. */
  attach(channel: Channel): void {
    this.register(channel);
  }

  /**
   * Brings a subscriber of `months` up to date from `since` (null: from now), sending what it
   * missed through `replay` (except what `skip` says it has), then calls `live` in the same
   * synchronous step as the last check: `live` must attach the subscriber's channel before it
   * returns. Past the retention window, or from a seq this log never reached, it goes live with
   * `reset: true`. `gone` ends the catch-up early (the client left): `live` is not called then.
   */
  async join(months: readonly string[], since: number | null, handlers: JoinHandlers): Promise<void> {
    const goLive = (reset: boolean) => handlers.live({ seq: this.delivered, reset });
    if (handlers.gone()) return;
    if (since === null) return goLive(false);
    const watched = new Set(months);
    const sorted = [...watched].sort();
    // A resume pays for each page before it is built, the first before any work: past the
    // client's budget it is told to refetch instead, so its cost follows the range it asks for.
    const pay = (source: ReplaySource, rows: number) => !handlers.afford || handlers.afford(source, rows);
    if (!pay(this.inMemory(since) ? 'memory' : 'database', Math.min(REPLAY_STEP, this.delivered - since))) return goLive(true);
    let prepaid = true;
    // Whether `since` is still kept (retention) and was ever written here (another database, a restore).
    const bounds = await this.bounds();
    if (handlers.gone()) return;
    if (since < bounds.prunedThrough || since > bounds.latest) return goLive(true);
    if (since > this.delivered) await this.reach(since);
    if (handlers.gone()) return;
    let cursor = since;
    // Step by step, each page built once for every subscriber that needs it: the main thread's
    // work per turn is one step, whatever `since` says, and the next waits for the client to read.
    for (;;) {
      if (cursor >= this.delivered) return goLive(false);
      const source = this.inMemory(cursor) ? 'memory' : 'database';
      if (!prepaid && !pay(source, Math.min(source === 'memory' ? REPLAY_STEP : REPLAY_PAGE, this.delivered - cursor))) return goLive(true);
      prepaid = false;
      if (source === 'memory') {
        const first = this.firstAfter(cursor);
        const rows = this.recent.slice(first, first + REPLAY_STEP);
        this.replay(collapseResets(rows.flatMap((row) => this.messagesFor(row, watched, this.birthdays))), watched, handlers);
        cursor = rows.at(-1)!.seq;
      } else {
        const page = await this.sharedPage(cursor, this.delivered, sorted);
        if (handlers.gone()) return;
        if (page.prunedThrough > cursor) return goLive(true);
        for (let i = 0; i < page.messages.length; i += REPLAY_STEP) {
          if (i > 0) {
            await nextTurn();
            if (handlers.gone()) return;
          }
          this.replay(page.messages.slice(i, i + REPLAY_STEP), watched, handlers);
        }
        cursor = page.through;
      }
      // Synchronous with the replay's last step: nothing can be fanned out in between.
      if (cursor >= this.delivered) return goLive(false);
      await handlers.drained?.();
      await nextTurn();
      if (handlers.gone()) return;
    }
  }

  /** Every row after `seq` is in memory. */
  private inMemory(seq: number): boolean {
    return seq >= this.recentFrom && seq <= this.delivered;
  }

  /** The index of the first row in memory after `seq` (the rows are in seq order). */
  private firstAfter(seq: number): number {
    let low = 0;
    let high = this.recent.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.recent[middle]!.seq <= seq) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** A row's messages; a schedule change's and a reset's are the same for every subscriber, so they are made once. */
  private messagesFor(row: LiveRow, watched: ReadonlySet<string>, category: Category): LiveMessage[] {
    if (row.kind === 'birthday') return messagesOf(row, watched, category);
    let messages = this.messageCache.get(row);
    if (!messages) this.messageCache.set(row, (messages = messagesOf(row, watched, category)));
    return messages;
  }

  /**
   * The log's bounds for every join that asks before the query starts, one query at a time: a
   * burst of resumes costs one query per round, not one each. Only askers from before the query
   * share it, so a seq a client saw (committed before it asked) is never newer than the answer.
   */
  private bounds(): Promise<{ latest: number; prunedThrough: number }> {
    if (!this.nextBounds) {
      let resolve!: (value: { latest: number; prunedThrough: number }) => void;
      let reject!: (error: unknown) => void;
      const promise = new Promise<{ latest: number; prunedThrough: number }>((yes, no) => ((resolve = yes), (reject = no)));
      this.nextBounds = { promise, resolve, reject };
      if (!this.boundsRunning) setImmediate(() => this.readBounds());
    }
    return this.nextBounds.promise;
  }

  private readBounds(): void {
    const batch = this.nextBounds;
    if (!batch) return;
    this.nextBounds = null;
    this.boundsRunning = true;
    logBounds(this.options.db).then(batch.resolve, batch.reject).finally(() => {
      this.boundsRunning = false;
      if (this.nextBounds) setImmediate(() => this.readBounds());
    });
  }

  /** One page of the log from PostgreSQL and its messages, shared by every subscriber asking for the same page at once. */
  private sharedPage(after: number, through: number, months: string[]): Promise<SharedPage> {
    const key = `${after}:${through}:${months.join(',')}`;
    let page = this.pages.get(key);
    if (!page) {
      page = (async () => {
        const read = await replayPage(this.options.db, after, through, months, REPLAY_PAGE);
        const category = birthdayCategory(read.rows.some((row) => row.kind === 'birthday') ? await this.categories() : []);
        const watched = new Set(months);
        const messages = collapseResets(read.rows.flatMap((row) => messagesOf(row, watched, category)));
        return { prunedThrough: read.prunedThrough, messages, through: read.rows.length === REPLAY_PAGE ? read.rows.at(-1)!.seq : through };
      })();
      const settled = () => void this.pages.delete(key);
      page.then(settled, settled);
      this.pages.set(key, page);
    }
    return page;
  }

  /**
   * What an administrator changed or deleted is forgotten in memory as in the log (change-log.ts
   * compactedRow): the earlier rows of each schedule these rows update or delete.
   */
  private forget(rows: LiveRow[]): void {
    const newest = new Map<number, LiveRow>();
    for (const row of rows) if (row.kind === 'updated' || row.kind === 'deleted') newest.set(row.targetId, row);
    if (newest.size === 0) return;
    for (let i = 0; i < this.recent.length; i++) {
      const row = this.recent[i]!;
      const latest = newest.get(row.targetId);
      if (latest && latest.seq > row.seq && (row.kind === 'created' || row.kind === 'updated')) this.recent[i] = compactedRow(row, latest);
    }
  }

  private replay(messages: LiveMessage[], watched: ReadonlySet<string>, handlers: JoinHandlers): void {
    for (const message of messages) {
      if (message.type !== 'reset' && !message.months.some((month) => watched.has(month))) continue;
      if (handlers.skip?.(message)) continue;
      handlers.replay(message);
    }
  }

  /** Subscribers' channels registered now. */
  get channelCount(): number {
    return this.channels.size;
  }
}

