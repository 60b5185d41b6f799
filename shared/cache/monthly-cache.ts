// The monthly listing cache: the serialised response of each month, filled on first read and
// dropped by every schedule write touching that month. A fill that raced an invalidation is not
// stored (the version check), so a read after a write never sees the stale month.
import type { Variants } from './compression.ts';

export interface CachedMonth {
  /** UTF-8 bytes, written to the socket as they are. */
  body: Uint8Array | string;
  etag: string;
  /** br and gzip of `body`, made once when the entry is filled. */
  variants?: Variants;
}

export interface MonthlyCache {
  get(year: number, month: number): CachedMonth | undefined;
  /** Stores the month unless it was invalidated since `version` was read. */
  set(year: number, month: number, value: CachedMonth, version: number): void;
  version(year: number, month: number): number;
  invalidate(year: number, month: number): void;
  invalidateAll(): void;
}

export class InProcessMonthlyCache implements MonthlyCache {
  private readonly entries = new Map<number, CachedMonth>();
  private readonly versions = new Map<number, number>();
  private generation = 0;

  private static key(year: number, month: number): number {
    return year * 100 + month;
  }

  get(year: number, month: number): CachedMonth | undefined {
    return this.entries.get(InProcessMonthlyCache.key(year, month));
  }

  version(year: number, month: number): number {
    return this.generation * 1_000_000 + (this.versions.get(InProcessMonthlyCache.key(year, month)) ?? 0);
  }

  set(year: number, month: number, value: CachedMonth, version: number): void {
    if (this.version(year, month) !== version) return;
    this.entries.set(InProcessMonthlyCache.key(year, month), value);
  }

  invalidate(year: number, month: number): void {
    const key = InProcessMonthlyCache.key(year, month);
    this.entries.delete(key);
    this.versions.set(key, (this.versions.get(key) ?? 0) + 1);
  }

  invalidateAll(): void {
    this.entries.clear();
    this.generation++;
  }

  get size(): number {
    return this.entries.size;
  }
}
