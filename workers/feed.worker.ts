// Piscina worker: a calendar feed's text, ETag and compressed variants, made from rows the edge
// read, off the edge's event loop. Compression runs on this thread too (the sync API), not on
// libuv's pool that file and DNS work share. This thread runs at a lower priority: a feed build uses
// the cores the event loop leaves idle. On Linux the priority applies to the calling thread only.
import { setPriority } from 'node:os';
import { Piscina } from 'piscina';
import { compressVariantsSync, strongEtag } from '../shared/cache/compression.ts';
import type { FeedEntry } from '../shared/cache/feed-cache.ts';
import { renderFeed, type FeedData, type FeedIdentity } from '../shared/schedules/calendar-feed-render.ts';

const BACKGROUND_NICENESS = 10;
try {
  setPriority(BACKGROUND_NICENESS);
} catch {
  // Not permitted here (some containers): the pool works at normal priority.
}

export interface FeedTask {
  data: FeedData;
  identity: FeedIdentity;
}

/** Piscina entry: the body and its variants go back transferred, not copied. */
export default function feedWorker(task: FeedTask) {
  // Its own ArrayBuffer (not Node's shared 8 KiB pool): transferable without detaching neighbours.
  const rendered = renderFeed(task.data, task.identity);
  const body = new Uint8Array(rendered.byteLength);
  body.set(rendered);
  const etag = strongEtag(body);
  const variants = compressVariantsSync(body, etag);
  const entry: FeedEntry = { body, etag, variants };
  const transfers = [body, variants.br?.body, variants.gzip?.body]
    .filter((view): view is Uint8Array => view !== undefined && view.byteOffset === 0 && view.byteLength === view.buffer.byteLength)
    .map((view) => view.buffer);
  // Piscina's Transferable type names its private symbols; these public getters return the same ones.
  const movable = { [Piscina.transferableSymbol]: transfers, [Piscina.valueSymbol]: entry };
  return Piscina.move(movable as unknown as Parameters<typeof Piscina.move>[0]);
}
