// What the live transports share: their settings from the configuration, the counters behind
// their metrics, and the hard bound of a subscriber's backlog.
import type { Config, LiveConfig } from '../../shared/runtime/config.ts';
import type { Admission } from './connection-limits.ts';

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
