// A short-lived cache of search pages in front of either engine: fans search the same few names
// over and over, and a page costs a scan of every match to rank and count them. Any write through
// this process clears it (read-your-writes for admin writes and the in-process indexer); writes by
// other replicas show up within the TTL.
import { normalizeText } from '../korean/normalize.ts';
import type { SearchDocument, SearchIndex, SearchPage } from './search-index.ts';

export interface SearchCacheOptions {
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

export class CachedSearchIndex implements SearchIndex {
  private readonly pages = new Map<string, { page: SearchPage; at: number }>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  /** Bumped by every write, so a search that started before it cannot store a stale page. */
  private generation = 0;

  constructor(
    private readonly inner: SearchIndex,
    options: SearchCacheOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 10_000;
    this.maxEntries = options.maxEntries ?? 2_000;
    this.now = options.now ?? Date.now;
  }

  get engine() {
    return this.inner.engine;
  }

  private changed(): void {
    this.generation++;
    this.pages.clear();
  }

  async upsert(documents: SearchDocument[]): Promise<void> {
    this.changed();
    await this.inner.upsert(documents);
    this.changed();
  }

  async remove(scheduleIds: number[]): Promise<void> {
    this.changed();
    await this.inner.remove(scheduleIds);
    this.changed();
  }

  async rebuild(documents: SearchDocument[]): Promise<number> {
    this.changed();
    const count = await this.inner.rebuild(documents);
    this.changed();
    return count;
  }

  count(): Promise<number> {
    return this.inner.count();
  }

  forget(): void {
    this.changed();
  }

  /** Whether this page is cached now: answering it costs no engine work. */
  cached(query: string, page: { offset: number; limit: number }): boolean {
    const hit = this.pages.get(`${page.offset}:${page.limit}:${normalizeText(query)}`);
    return hit !== undefined && this.now() - hit.at < this.ttlMs;
  }

  async search(query: string, page: { offset: number; limit: number }): Promise<SearchPage> {
    const key = `${page.offset}:${page.limit}:${normalizeText(query)}`;
    const hit = this.pages.get(key);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.page;
    const generation = this.generation;
    const result = await this.inner.search(query, page);
    if (generation === this.generation) {
      this.pages.delete(key);
      this.pages.set(key, { page: result, at: this.now() });
      if (this.pages.size > this.maxEntries) this.pages.delete(this.pages.keys().next().value!);
    }
    return result;
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
