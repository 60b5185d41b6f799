// Piscina worker: a calendar feed read, written, hashed and compressed off the edge's event loop.
// The thread has its own database connection, so the rows of thousands of long events are parsed
// here and only the finished bytes cross back, transferred. Compression runs on this thread too
// (the sync API), not on libuv's pool that file and DNS work share. This thread runs at a lower
// priority: a feed build uses the cores the event loop leaves idle (on Linux the priority applies
// to the calling thread only). A database error crosses back marked (DATABASE_UNAVAILABLE), so the
// edge answers 503, not 500.
import { setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { compressVariantsSync, strongEtag } from '../shared/cache/compression.ts';
import type { FeedEntry } from '../shared/cache/feed-cache.ts';
import { connectDatabase, DATABASE_UNAVAILABLE, databaseUnavailable } from '../shared/db/database.ts';
import { createLogger } from '../shared/runtime/logger.ts';
import { loadFeedData, type FeedFilter } from '../shared/schedules/calendar-feed.ts';
import { renderFeed, type FeedIdentity } from '../shared/schedules/calendar-feed-render.ts';

const BACKGROUND_NICENESS = 10;
try {
  setPriority(BACKGROUND_NICENESS);
} catch {
  // Not permitted here (some containers): the pool works at normal priority.
}

export interface FeedWorkerData {
  databaseUrl: string;
  /** The edge's database bounds (DATABASE_CONNECT_TIMEOUT_MS, DATABASE_QUERY_TIMEOUT_MS). */
  timeouts: { connectMs: number; queryMs: number };
  /** What storage_url() puts before a stored key: image URLs as the month listing gives them. */
  storageBaseUrl: string;
}

export interface FeedTask {
  filter: FeedFilter;
  window: { from: string; to: string };
  birthdayCategory: string;
  identity: FeedIdentity;
}

export interface BuiltFeed {
  entry: FeedEntry;
  /** The window held more schedules than a feed carries (FEED_LIMITS.schedules). */
  truncated: boolean;
}

const data = workerData as FeedWorkerData;
// Set up as the edge's connections are (type parsers, storage_url()); a connection lost while idle is replaced at the next query.
const { db } = connectDatabase(data.databaseUrl, createLogger('warn'), 1, { timeouts: data.timeouts, storageBaseUrl: data.storageBaseUrl });

/** Piscina entry: the body and its variants go back transferred, not copied. */
export default async function feedWorker(task: FeedTask) {
  let loaded: Awaited<ReturnType<typeof loadFeedData>>;
  try {
    loaded = await loadFeedData(db, task.filter, task.window, task.birthdayCategory);
  } catch (error) {
    if (databaseUnavailable(error)) throw new Error(DATABASE_UNAVAILABLE + (error as Error).message);
    throw error;
  }
  // Its own ArrayBuffer (not Node's shared 8 KiB pool): transferable without detaching neighbours.
  const rendered = renderFeed(loaded.data, task.identity);
  const body = new Uint8Array(rendered.byteLength);
  body.set(rendered);
  const etag = strongEtag(body);
  const variants = compressVariantsSync(body, etag);
  const built: BuiltFeed = { entry: { body, etag, variants }, truncated: loaded.truncated };
  const transfers = [body, variants.br?.body, variants.gzip?.body]
    .filter((view): view is Uint8Array => view !== undefined && view.byteOffset === 0 && view.byteLength === view.buffer.byteLength)
    .map((view) => view.buffer);
  // Piscina's Transferable type names its private symbols; these public getters return the same ones.
  const movable = { [Piscina.transferableSymbol]: transfers, [Piscina.valueSymbol]: built };
  return Piscina.move(movable as unknown as Parameters<typeof Piscina.move>[0]);
}
