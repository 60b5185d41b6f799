// The rank-ordered lookups of the completion index (shared/korean/suggestion-index.ts): bounded
// top-k selection and insertion into rank-ordered id lists, a multikey sort of keys, binary
// searches over sorted keys, and `PrefixTable`, the sorted (key, candidate) pairs whose prefix
// ranges answer from cached top lists.

/** Largest `limit` honoured by `suggest`. */
export const MAX_SUGGESTIONS = 50;

// Ranges of the sorted key arrays larger than this answer from a cached top list.
const HEAVY_RANGE = 512;
// Tier 1 asks for `limit` plus the tier-0 hits it may repeat, so caches keep twice the limit.
export const CACHED_TOP = 2 * MAX_SUGGESTIONS;
// Inserted keys wait in a small sorted list until this many, then merge into the main arrays.
const PENDING_LIMIT = 2048;

export type Compare = (a: number, b: number) => number;

/** Keeps the `count` best ids (distinct) in rank order. */
export function selectTop(ids: Iterable<number>, count: number, compare: Compare, exclude?: ReadonlySet<number>): number[] {
  const best: number[] = [];
  const taken = new Set<number>();
  for (const id of ids) {
    if (taken.has(id) || exclude?.has(id)) continue;
    if (best.length === count && compare(id, best[count - 1]!) >= 0) continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(best[mid]!, id) < 0) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, id);
    taken.add(id);
    if (best.length > count) taken.delete(best.pop()!);
  }
  return best;
}

/** Inserts or moves `id` in a rank-ordered list, keeping at most `capacity` entries. */
export function upsertRanked(list: number[], id: number, compare: Compare, capacity: number): void {
  const existing = list.indexOf(id);
  if (existing >= 0) list.splice(existing, 1);
  insertRanked(list, id, compare, capacity);
}

/** Inserts `id` (not yet in the list) at its rank, keeping at most `capacity` entries. */
export function insertRanked(list: number[], id: number, compare: Compare, capacity = Number.POSITIVE_INFINITY): void {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(list[mid]!, id) < 0) lo = mid + 1;
    else hi = mid;
  }
  if (lo >= capacity) return;
  list.splice(lo, 0, id);
  if (list.length > capacity) list.pop();
}

function commonPrefixLength(a: string, b: string): number {
  const end = Math.min(a.length, b.length);
  let i = 0;
  while (i < end && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * Order of `keys` by UTF-16 code units (the order of `<`), by multikey quicksort: keys share
 * long prefixes (every title starting with 프로미스나인), which a comparison sort re-reads on
 * every comparison. The code units are copied into one typed array first, which is faster to
 * read than many (sliced) strings.
 */
function sortedOrder(keys: readonly string[]): Int32Array {
  let total = 0;
  for (const key of keys) total += key.length;
  const units = new Uint16Array(total);
  const begin = new Int32Array(keys.length);
  const end = new Int32Array(keys.length);
  let at = 0;
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!;
    begin[k] = at;
    for (let i = 0; i < key.length; i++) units[at++] = key.charCodeAt(i);
    end[k] = at;
  }
  // Code unit of key `k` at `depth`, or -1 past its end (shorter keys sort first).
  const codeAt = (k: number, depth: number): number => {
    const position = begin[k]! + depth;
    return position < end[k]! ? units[position]! : -1;
  };
  const compareFrom = (a: number, b: number, depth: number): number => {
    let pa = begin[a]! + depth;
    let pb = begin[b]! + depth;
    const endA = end[a]!;
    const endB = end[b]!;
    for (; pa < endA && pb < endB; pa++, pb++) {
      const difference = units[pa]! - units[pb]!;
      if (difference !== 0) return difference;
    }
    return endA - pa - (endB - pb);
  };

  const order = new Int32Array(keys.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  const stack = [0, keys.length, 0];
  while (stack.length > 0) {
    const depth = stack.pop()!;
    const hi = stack.pop()!;
    const lo = stack.pop()!;
    if (hi - lo < 16) {
      for (let i = lo + 1; i < hi; i++) {
        const moving = order[i]!;
        let j = i;
        while (j > lo && compareFrom(order[j - 1]!, moving, depth) > 0) {
          order[j] = order[j - 1]!;
          j--;
        }
        order[j] = moving;
      }
      continue;
    }
    const pivot = codeAt(order[(lo + hi) >>> 1]!, depth);
    let lt = lo;
    let gt = hi - 1;
    let i = lo;
    while (i <= gt) {
      const current = order[i]!;
      const code = codeAt(current, depth);
      if (code < pivot) {
        order[i++] = order[lt]!;
        order[lt++] = current;
      } else if (code > pivot) {
        order[i] = order[gt]!;
        order[gt--] = current;
      } else {
        i++;
      }
    }
    stack.push(lo, lt, depth);
    if (pivot >= 0) stack.push(lt, gt + 1, depth + 1);
    stack.push(gt + 1, hi, depth);
  }
  return order;
}

function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index from `from` whose key sorts after `key`. */
function upperBound(keys: readonly string[], key: string, from: number): number {
  let lo = from;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index from `from` whose key neither precedes nor starts with `prefix`. */
function prefixEnd(keys: readonly string[], prefix: string, from: number): number {
  let lo = from;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]!.startsWith(prefix)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Sorted (key, candidate) pairs. A prefix query is two binary searches; when the matching
 * range is large its best candidates come from a cache keyed by the range's common prefix
 * (built bottom-up at load, recomputed lazily when missing). Inserts go to a small sorted
 * pending list, scanned on every query and merged into the main arrays when it fills up,
 * so an insert does not shift 300,000-entry arrays.
 */
export class PrefixTable {
  #keys: string[] = [];
  #ids: number[] = [];
  #pendingKeys: string[] = [];
  #pendingIds: number[] = [];
  readonly #topByPrefix = new Map<string, number[]>();
  #longestCachedPrefix = 0;
  readonly #compare: Compare;
  readonly #rankSnapshot: () => Compare;

  /** `rankSnapshot` gives a comparator equal to `compare` but cheaper, for bulk rebuilds. */
  constructor(compare: Compare, rankSnapshot: () => Compare) {
    this.#compare = compare;
    this.#rankSnapshot = rankSnapshot;
  }

  get size(): number {
    return this.#keys.length + this.#pendingKeys.length;
  }

  /** Replaces the contents. */
  load(keys: readonly string[], ids: readonly number[]): void {
    const order = sortedOrder(keys);
    this.#keys = Array.from(order, (i) => keys[i]!);
    this.#ids = Array.from(order, (i) => ids[i]!);
    this.#pendingKeys = [];
    this.#pendingIds = [];
    this.#rebuildCache(this.#rankSnapshot());
  }

  insert(key: string, id: number): void {
    const at = lowerBound(this.#pendingKeys, key);
    this.#pendingKeys.splice(at, 0, key);
    this.#pendingIds.splice(at, 0, id);
    if (this.#pendingKeys.length >= PENDING_LIMIT) this.#mergePending();
  }

  /** Takes the candidate's pairs with these keys out, and the cached lists along them (rebuilt on demand). */
  remove(keys: readonly string[], id: number): void {
    for (const key of keys) {
      for (const [sortedKeys, ids] of [[this.#keys, this.#ids], [this.#pendingKeys, this.#pendingIds]] as const) {
        for (let i = lowerBound(sortedKeys, key); i < sortedKeys.length && sortedKeys[i] === key; i++) {
          if (ids[i] !== id) continue;
          sortedKeys.splice(i, 1);
          ids.splice(i, 1);
          break;
        }
      }
    }
    this.invalidate(keys);
  }

  /** The candidate's rank improved: move it up in every cached list along its keys. */
  promote(keys: readonly string[], id: number): void {
    for (const key of keys) {
      this.#forEachCachedPrefix(key, (prefix, list) => upsertRanked(list, id, this.#compare, CACHED_TOP));
    }
  }

  /** The candidate's rank got worse: drop cached lists along its keys (rebuilt on demand). */
  invalidate(keys: readonly string[]): void {
    for (const key of keys) this.#forEachCachedPrefix(key, (prefix) => this.#topByPrefix.delete(prefix));
  }

  /** Best `count` (≤ CACHED_TOP) candidates having a key that starts with `prefix`; a fresh array. */
  top(prefix: string, count: number): number[] {
    const main = this.#mainTop(prefix, count);
    if (this.#pendingKeys.length === 0) return main;
    const lo = lowerBound(this.#pendingKeys, prefix);
    const hi = prefixEnd(this.#pendingKeys, prefix, lo);
    if (lo === hi) return main;
    return selectTop([...main, ...this.#pendingIds.slice(lo, hi)], count, this.#compare);
  }

  #mainTop(prefix: string, count: number): number[] {
    const keys = this.#keys;
    const lo = lowerBound(keys, prefix);
    const hi = prefixEnd(keys, prefix, lo);
    if (hi - lo <= HEAVY_RANGE) return selectTop(this.#ids.slice(lo, hi), count, this.#compare);
    const common = keys[lo]!.slice(0, commonPrefixLength(keys[lo]!, keys[hi - 1]!));
    let list = this.#topByPrefix.get(common);
    if (!list) {
      list = selectTop(this.#ids.slice(lo, hi), CACHED_TOP, this.#compare);
      this.#cache(common, list);
    }
    return list.slice(0, count);
  }

  #mergePending(): void {
    // Few pending keys against many main keys: binary-search each and copy the runs between.
    const keys: string[] = [];
    const ids: number[] = [];
    let copied = 0;
    for (let p = 0; p < this.#pendingKeys.length; p++) {
      const key = this.#pendingKeys[p]!;
      const at = upperBound(this.#keys, key, copied);
      for (let i = copied; i < at; i++) {
        keys.push(this.#keys[i]!);
        ids.push(this.#ids[i]!);
      }
      copied = at;
      keys.push(key);
      ids.push(this.#pendingIds[p]!);
    }
    for (let i = copied; i < this.#keys.length; i++) {
      keys.push(this.#keys[i]!);
      ids.push(this.#ids[i]!);
    }
    this.#keys = keys;
    this.#ids = ids;
    this.#pendingKeys = [];
    this.#pendingIds = [];
    this.#rebuildCache(this.#rankSnapshot());
  }

  #rebuildCache(compare: Compare): void {
    this.#topByPrefix.clear();
    this.#longestCachedPrefix = 0;
    if (this.#keys.length > HEAVY_RANGE) this.#buildCache(0, this.#keys.length, compare);
  }

  #cache(prefix: string, list: number[]): void {
    this.#topByPrefix.set(prefix, list);
    if (prefix.length > this.#longestCachedPrefix) this.#longestCachedPrefix = prefix.length;
  }

  #forEachCachedPrefix(key: string, visit: (prefix: string, list: number[]) => void): void {
    const longest = Math.min(key.length, this.#longestCachedPrefix);
    for (let length = 1; length <= longest; length++) {
      const prefix = key.slice(0, length);
      const list = this.#topByPrefix.get(prefix);
      if (list) visit(prefix, list);
    }
  }

  /** Caches the top list of every heavy range under [lo, hi), children first. */
  #buildCache(lo: number, hi: number, compare: Compare): number[] {
    if (hi - lo <= HEAVY_RANGE) return selectTop(this.#ids.slice(lo, hi), CACHED_TOP, compare);
    const keys = this.#keys;
    const depth = commonPrefixLength(keys[lo]!, keys[hi - 1]!);
    const parts: number[] = [];
    let i = lo;
    // A key equal to the common prefix sorts before every longer key sharing it.
    while (i < hi && keys[i]!.length === depth) parts.push(this.#ids[i++]!);
    while (i < hi) {
      const code = keys[i]!.charCodeAt(depth);
      let a = i + 1;
      let b = hi;
      while (a < b) {
        const mid = (a + b) >>> 1;
        if (keys[mid]!.charCodeAt(depth) === code) a = mid + 1;
        else b = mid;
      }
      for (const id of this.#buildCache(i, a, compare)) parts.push(id);
      i = a;
    }
    const list = selectTop(parts, CACHED_TOP, compare);
    this.#cache(keys[lo]!.slice(0, depth), list);
    return list;
  }
}
