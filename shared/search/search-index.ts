// One interface for the search index, two engines: embedded in PostgreSQL (default) and OpenSearch.
export interface SearchDocument {
  scheduleId: number;
  title: string;
  description: string;
  categoryId: number;
  categoryName: string;
  date: string;
  /** School name for events, channel or account otherwise; with the school's short forms. */
  sourceNames: string[];
  /** Member names and nicknames. */
  memberNames: string[];
  /** The event's venue: name, address, road address (none for other schedules). */
  venueNames?: string[];
}

export interface SearchPage {
  ids: number[];
  /** Exact up to SEARCH_TOTAL_CAP (1,000); a query matching more reports the cap and `hasMore`. */
  total: number;
  /** Set when more documents match than `total` counts: whether any follow this page. */
  hasMore?: boolean;
  /** Query words the results do not match: no document matched every word. */
  ignoredWords?: string[];
}

/**
 * Totals are counted exactly up to this many matches; a query matching more reports this number
 * with `hasMore` (the OpenAPI description and docs/search.md say so), and its pages are still in exact
 * rank order.
 */
export const SEARCH_TOTAL_CAP = 1000;

export interface SearchIndex {
  readonly engine: 'embedded' | 'opensearch';
  upsert(documents: SearchDocument[]): Promise<void>;
  remove(scheduleIds: number[]): Promise<void>;
  /**
   * Best match first (title > school/source > venue > members > description, then recency). A
   * query that matches nothing, or only weakly, is also matched within one jamo edit per word;
   * those matches follow the exact ones.
   */
  search(query: string, page: { offset: number; limit: number }): Promise<SearchPage>;
  /** Drops cached pages: what a query is read by changed (an alias, a translation), not the documents. */
  forget?(): void;
  /** Whether that page would be answered from a cache (a result cache in front says so). */
  cached?(query: string, page: { offset: number; limit: number }): boolean;
  /** Replaces the whole index with these documents; searches never see a half-built index. */
  rebuild(documents: SearchDocument[]): Promise<number>;
  count(): Promise<number>;
  close(): Promise<void>;
}
