// What the live transports share: their settings from the configuration, the counters behind
// their metrics, and the hard bound of a subscriber's backlog.
import type { Config, LiveConfig } from '../../shared/runtime/config.ts';
import type { Admission } from './connection-limits.ts';
import { HttpError } from '../../shared/errors.ts';
import type { QueryBudget } from '../query-budget.ts';
import type { ReplaySource } from '../../shared/live/live-hub.ts';

export type Transport = 'websocket' | 'sse';

/** The live configuration the transports use (retention is the change log's), with the proxy hops that name the client. */
export type LiveSettings = Omit<LiveConfig, 'retentionHours' | 'retentionChanges'> & { trustProxy: number };

export const liveSettings = (config: Config): LiveSettings => ({ ...config.live, trustProxy: config.trustProxy });

export interface LiveCounters {
  sent(transport: Transport, messages: number): void;
  dropped(transport: Transport): void;
  refused(admission: Exclude<Admission, 'ok'>): void;
}

/**
 * A reader's backlog may pass the limit for a moment (a burst of changes); a subscriber whose
 * backlog is this far past it is not reading, and is dropped at once.
 */
export const HARD_MARGIN_BYTES = 8 * 1024 * 1024;

/** Resolves once `backlog()` is at most `limit` bytes, or `gone()`; polled, as neither transport reports draining to a waiter. */
export async function drainedBelow(backlog: () => number, limit: number, gone: () => boolean): Promise<void> {
  while (!gone() && backlog() > limit) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Takes the price of a page of a resume's replay from a network's budget: false when the network has spent it (the resume then gets a reset). */
export type ResumeBudget = (network: string, source: ReplaySource, rows: number) => boolean;

/** Changes of a replay from memory that cost one unit of the query budget. */
export const ROWS_PER_UNIT = 100;

/**
 * Resumes paid from the query budget, keyed by the client's network (an IPv4 /24, an IPv6 /48),
 * page by page (at most 500 changes): a page from the hub's memory costs a unit per 100 changes
 * (a short absence costs 1), one read from PostgreSQL `databaseCost`.
 */
export function resumeBudget(budget: QueryBudget, databaseCost: number): ResumeBudget {
  return (network, source, rows) => {
    try {
      budget.take(network, source === 'memory' ? Math.max(1, Math.ceil(rows / ROWS_PER_UNIT)) : databaseCost);
      return true;
    } catch (error) {
      if (error instanceof HttpError) return false;
      throw error;
    }
  };
}

/** Client messages (subscribe, unsubscribe) a socket may have waiting; past it the socket is closed with 1008. */
export const MAX_WAITING_MESSAGES = 4;

/** A socket's subscribe and unsubscribe rate: a bucket of `burst`, refilled at `perSecond`; past it, close 1008. */
export const SOCKET_RATE = { burst: 20, perSecond: 2 };

/** SSE `retry`: each stream gets its own delay in this range, so a stopped replica's clients do not come back at once. */
export const RETRY_MS = { min: 1_000, max: 6_000 };
export const jitteredRetry = () => RETRY_MS.min + Math.floor(Math.random() * (RETRY_MS.max - RETRY_MS.min));

/** The code and message a refused connection gets, by the limit it met. */
export function refusal(admission: Exclude<Admission, 'ok'>, settings: LiveSettings, maxPerNetwork: number): { code: 'too_many_connections' | 'server_busy'; error: string } {
  if (admission === 'client') return { code: 'too_many_connections', error: `한 주소에서 열 수 있는 실시간 연결은 ${settings.maxConnectionsPerClient}개까지입니다.` };
  if (admission === 'network') return { code: 'too_many_connections', error: `한 네트워크에서 열 수 있는 실시간 연결은 ${maxPerNetwork}개까지입니다.` };
  return { code: 'server_busy', error: '실시간 연결이 너무 많습니다. 잠시 후 다시 연결해 주세요.' };
}

/** Connections closed per second at least when a replica stops: a small replica closes at once. */
const CLOSE_RATE_PER_SECOND = 1_000;
const CLOSE_STEP_MS = 50;

/**
 * Closes `items` in steps over at most `spreadMs` (and faster when few): the clients of a stopping
 * replica reconnect to the others spread out, not in one burst.
 */
export async function closeSpread<T>(items: T[], close: (item: T) => void, spreadMs: number): Promise<void> {
  const duration = Math.min(spreadMs, Math.ceil((items.length / CLOSE_RATE_PER_SECOND) * 1000));
  const steps = Math.max(1, Math.floor(duration / CLOSE_STEP_MS));
  const perStep = Math.ceil(items.length / steps);
  for (let i = 0; i < items.length; i += perStep) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, CLOSE_STEP_MS));
    for (const item of items.slice(i, i + perStep)) close(item);
  }
}
