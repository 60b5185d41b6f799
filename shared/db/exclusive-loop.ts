// One active instance among all processes: a loop that holds a PostgreSQL session-level advisory lock
// on a dedicated connection, works while it holds it, and otherwise stands by. If the process dies
// or its connection drops, PostgreSQL releases the lock and a standby takes over. The outbox relay
// and the bot runner are such loops.
import { sleep, Wakeup } from '../bus/bus.ts';
import type { Logger } from '../runtime/logger.ts';
import { FailureStreak } from '../runtime/failure-streak.ts';
import type { Db } from './database.ts';

export type Session = Awaited<ReturnType<Db['connect']>>;

export interface ExclusiveLoopOptions {
  db: Db;
  logger: Logger;
  /** For log lines: 'outbox relay', 'bot runner'. */
  name: string;
  lockKey: number;
  /** NOTIFY channel that wakes the loop. */
  channel: string;
  /** Longest sleep between rounds, and between lock attempts while standing by. */
  pollMs: number;
  /** Runs once on each new session (session settings). */
  prepare?: (session: Session) => Promise<void>;
  /** One round of work while active; true when more work is waiting (no pause before the next). */
  tick: (session: Session, signal: AbortSignal) => Promise<boolean | void>;
  /** Runs at stop after the loop ended, before the session (and the lock) is released. */
  beforeRelease?: () => Promise<void>;
}

export interface ExclusiveLoop {
  /** Wakes the loop for a round now. */
  wake(): void;
  stop(): Promise<void>;
}

export function startExclusiveLoop(options: ExclusiveLoopOptions): ExclusiveLoop {
  const { db, logger, name } = options;
  const abort = new AbortController();
  const wakeup = new Wakeup();
  let session: Session | null = null;
  let active = false;

  const openSession = async (): Promise<Session> => {
    const opened: Session = await db.connect({
      direct: true,
      onLost: (error: unknown) => {
        if (session !== opened) return;
        session = null;
        if (active && !abort.signal.aborted) logger.error({ err: error }, `${name} lost its session: another instance takes over`);
        active = false;
        wakeup.notify();
      },
    });
    opened.client.on('notification', () => wakeup.notify());
    await options.prepare?.(opened);
    session = opened;
    return opened;
  };

  const run = async () => {
    const { signal } = abort;
    let failures = 0;
    const streak = new FailureStreak(logger, name);
    while (!signal.aborted) {
      try {
        const current = session ?? (await openSession());
        if (!active) {
          const { locked } = await current.one<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [options.lockKey]);
          if (!locked) {
            await wakeup.wait(options.pollMs); // standby: another process holds the lock
            continue;
          }
          await current.none('LISTEN $1:name', [options.channel]);
          active = true;
          logger.info(`${name} active`);
        }
        const more = await options.tick(current, signal);
        failures = 0;
        streak.succeeded();
        if (!more) await wakeup.wait(options.pollMs);
      } catch (error) {
        if (signal.aborted) break;
        failures++;
        streak.failed(error);
        await sleep(Math.min(250 * 2 ** Math.min(failures - 1, 7), 30_000), signal);
      }
    }
  };

  const loop = run();
  let stopping: Promise<void> | null = null;
  return {
    wake: () => wakeup.notify(),
    stop: () =>
      (stopping ??= (async () => {
        abort.abort();
        wakeup.notify();
        await loop;
        await options.beforeRelease?.();
        const current = session;
        session = null;
        active = false;
        // Closing the session releases the lock: a standby takes over.
        if (current) await (current.done() as Promise<void> | undefined)?.catch(() => undefined);
      })()),
  };
}
