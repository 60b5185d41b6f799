// Calendar feeds by filter: an entry stays valid while no month of its window changed. It keeps the
// month cache's version of each of those months (every schedule write moves the versions of the
// months it touches, a member or category write moves them all), so one schedule change rebuilds
// only the feeds whose window holds it, on their next request, and no write path needs to know
// about feeds. Bounded in bytes (FEED_CACHE_MB: body and compressed variants), least recently used
// out first; a feed larger than the whole budget is served and not kept. Concurrent misses of one
// feed share one build.
import { SingleFlight } from '../runtime/single-flight.ts';
import type { Variants } from './compression.ts';
import type { MonthlyCache } from './monthly-cache.ts';

export interface FeedEntry {
  body: Uint8Array;
  etag: string;
  variants: Variants;
}

export interface FeedWindowMonths {
  /** Identifies the window (its first month, year * 100 + month). */
  key: number;
  months: ReadonlyArray<{ year: number; month: number }>;
}

interface Stored {
  windowKey: number;
  versions: number[];
  entry: FeedEntry;
  bytes: number;
}

export interface FeedCacheStats {
  entries: number;
  bytes: number;
  /** Builds started since start (joined builds not counted). */
  builds: number;
  /** Entries dropped to make room. */
  evictions: number;
}

/** What an entry costs: its bytes, the compressed variants', and the key's. */
const sizeOf = (key: string, entry: FeedEntry) =>
  entry.body.byteLength + (entry.variants.br?.body.byteLength ?? 0) + (entry.variants.gzip?.body.byteLength ?? 0) + key.length * 2 + 256;

export class FeedCache {
  private readonly entries = new Map<string, Stored>();
  private readonly flights = new SingleFlight<FeedEntry>();
  private bytes = 0;
  private builds = 0;
  private evictions = 0;

  constructor(private readonly monthly: MonthlyCache, private readonly maxBytes: number) {}

  private versions(window: FeedWindowMonths): number[] {
    return window.months.map(({ year, month }) => this.monthly.version(year, month));
  }

  private current(window: FeedWindowMonths, versions: number[]): boolean {
    for (let i = 0; i < window.months.length; i++) {
      const { year, month } = window.months[i]!;
      if (this.monthly.version(year, month) !== versions[i]) return false;
    }
    return true;
  }

  private drop(key: string): void {
    const stored = this.entries.get(key);
    if (!stored) return;
    this.entries.delete(key);
    this.bytes -= stored.bytes;
  }

  /** The cached feed, or null when it must be built. */
  get(key: string, window: FeedWindowMonths): FeedEntry | null {
    const stored = this.entries.get(key);
    if (!stored) return null;
    if (stored.windowKey !== window.key || !this.current(window, stored.versions)) {
      this.drop(key);
      return null;
    }
    // Re-inserted: the map's order is the order entries were last used.
    this.entries.delete(key);
    this.entries.set(key, stored);
    return stored.entry;
  }

  /**
   * Joins the build of `key` begun on the same month versions, or starts `build` and keeps its
   * feed unless a month changed meanwhile. `starting` runs only when this call starts a build, and
   * before it: what it throws (the client's budget spent) reaches the caller, and nothing starts.
   */
  fill(key: string, window: FeedWindowMonths, build: () => Promise<FeedEntry>, starting: () => void = () => undefined): Promise<FeedEntry> {
    const versions = this.versions(window);
    // Month versions only grow, so their sum names the state of one window.
    const version = versions.reduce((sum, v) => sum + v, 0);
    return this.flights.run(`${window.key}|${key}`, () => {
      starting();
      this.builds++;
      return build().then((built) => {
        if (this.current(window, versions)) this.store(key, { windowKey: window.key, versions, entry: built, bytes: sizeOf(key, built) });
        return built;
      });
    }, version).result;
  }

  private store(key: string, stored: Stored): void {
    this.drop(key);
    if (stored.bytes > this.maxBytes) return;
    while (this.bytes + stored.bytes > this.maxBytes) {
      this.drop(this.entries.keys().next().value!); // least recently used first out
      this.evictions++;
    }
    this.entries.set(key, stored);
    this.bytes += stored.bytes;
  }

  stats(): FeedCacheStats {
    return { entries: this.entries.size, bytes: this.bytes, builds: this.builds, evictions: this.evictions };
  }
}
