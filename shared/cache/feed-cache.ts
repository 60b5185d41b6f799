// Calendar feeds by filter: an entry stays valid while no month of its window changed. It keeps the
// month cache's version of each of those months (every schedule write moves the versions of the
// months it touches, a member or category write moves them all), so one schedule change rebuilds
// only the feeds whose window holds it, on their next request, and no write path needs to know
// about feeds. Bounded; concurrent misses of one feed share one build.
import type { Variants } from './compression.ts';
import type { MonthlyCache } from './monthly-cache.ts';

export interface FeedEntry {
  body: Buffer;
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
}

export class FeedCache {
  private readonly entries = new Map<string, Stored>();
  private readonly building = new Map<string, { windowKey: number; versions: number[]; entry: Promise<FeedEntry> }>();

  constructor(private readonly monthly: MonthlyCache, private readonly maxEntries = 256) {}

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

  /** The cached feed, or null when it must be built. */
  get(key: string, window: FeedWindowMonths): FeedEntry | null {
    const stored = this.entries.get(key);
    if (stored && stored.windowKey === window.key && this.current(window, stored.versions)) return stored.entry;
    return null;
  }

  /** Builds the feed (or joins a build begun on the same versions) and keeps it unless a month changed meanwhile. */
  fill(key: string, window: FeedWindowMonths, build: () => Promise<FeedEntry>): Promise<FeedEntry> {
    const running = this.building.get(key);
    if (running && running.windowKey === window.key && this.current(window, running.versions)) return running.entry;
    const versions = this.versions(window);
    const entry = build().then((built) => {
      if (this.current(window, versions)) {
        this.entries.delete(key);
        if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!); // oldest first out
        this.entries.set(key, { windowKey: window.key, versions, entry: built });
      }
      return built;
    }).finally(() => {
      if (this.building.get(key)?.entry === entry) this.building.delete(key);
    });
    this.building.set(key, { windowKey: window.key, versions, entry });
    return entry;
  }

  get size(): number {
    return this.entries.size;
  }
}
