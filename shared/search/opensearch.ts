// The OpenSearch engine (OPENSEARCH_URL): an alias (`schedules`) in front of versioned indices
// (`schedules-v<timestamp>`). A rebuild fills a new index, refreshes it and swaps the alias in one
// `_aliases` call, so searches never see a half-built index. Text is normalised here exactly as the
// embedded engine does it; fields are analysed by nori (user dictionary inline) and by 2–3-grams
// over the space-free text, and a choseong keyword field is computed here with `choseong()`.
// Ranking mirrors the embedded engine tier for tier (constant scores, not BM25): per query word the
// best field counts (title 8, source 4, venue 3, members 2, description 1), words add up, then
// newer first. Typos, as in the embedded engine: when no exact hit has every word outside the
// description (a `filter` aggregation of the same request tells), a second request finds the
// documents matching within one jamo edit, after the exact ones. Each field keeps, per run of
// Hangul syllables and each part of it of two or more syllables, a keyword `skeleton|jamo`
// (shared/korean/typo.ts), and a second `skeleton|jamo` for a part with a compound vowel; a
// `fuzzy` query per skeleton of the word, `prefix_length` covering the skeleton and `fuzziness`
// its keystrokes, then accepts jamo edits that leave the skeleton as it is.
import { createHash } from 'node:crypto';
import { Client, errors, type API } from '@opensearch-project/opensearch';
import { choseong, isChoseongQuery } from '../korean/jamo.ts';
import { isTypoCandidate, jamoWord, maxTypoEdits, typoSkeletons } from '../korean/typo.ts';
import { normalizeText } from '../korean/normalize.ts';
import { parseUserDictionary } from '../korean/dictionary.ts';
import type { Logger } from '../runtime/logger.ts';
import { plainQueryWords, queryWords, rewritesOf, SEARCH_TOTAL_CAP, TIER, TYPO_TIER, understoodBy, type QueryAnalyzer } from './embedded.ts';
import { dateSearchBody, RememberedWeights, weightsBody, weightsOf } from './opensearch-understanding.ts';
import { understandQuery, withTitleSpellings } from '../korean/query-understanding.ts';
import { undecoratedText } from '../korean/decorations.ts';
import { MERGE_LIMIT, searchAsFansType, type WordSearchEngine, type WordWeights } from './fan-typing.ts';
import { defaultSynonyms, type SynonymSource } from './synonym-source.ts';
import type { SearchDocument, SearchIndex, SearchPage } from './search-index.ts';

const MAX_DESCRIPTION_CHARS = 1000;
const BULK_DOCUMENTS = 500;
// index.max_result_window's default: from + size beyond it is refused by the server.
const MAX_RESULT_WINDOW = 10_000;
// An unaliased versioned index older than this is a leftover of a rebuild that died.
const ABANDONED_BUILD_MS = 60 * 60 * 1000;

const TEXT_FIELDS = ['title', 'source', 'venue', 'members', 'description'] as const;
/** Fields searched within one jamo edit (not the description: too many words, too many near misses). */
const TYPO_FIELDS = ['title', 'source', 'venue', 'members'] as const;
type TypoField = (typeof TYPO_FIELDS)[number];
/** Version of the mapping and of `indexedDocument`: an index of another format is rebuilt by `ensure`. */
export const INDEX_FORMAT = 6;
/** Longest run of Hangul syllables whose parts are all indexed for typos (longer runs: their start). */
const MAX_TYPO_RUN = 12;
const HANGUL_RUN = /[가-힣]+/g;

/** What one document looks like in the index. */
export type IndexedDocument = {
  scheduleId: number;
  categoryId: number;
  date: string;
  title: string;
  source: string[];
  venue: string[];
  members: string[];
  description: string;
  /** Initial consonants of the title, each source name and each member name, spaces removed. */
  choseong: string[];
  /** `skeleton|jamo` of every run of two or more Hangul syllables of each field (typoKeys). */
  typo: Record<TypoField, string[]>;
};

/** The typo keys of a word, each a skeleton, `|`, its jamo: one per skeleton (`typoSkeletons`: two with a compound vowel). */
const typoKeysOf = (word: string) => {
  const jamo = jamoWord(word);
  return typoSkeletons(word).map((skeleton) => `${skeleton}|${jamo}`);
};
/** The first typo key of a word: its `typoSkeleton`, `|`, its jamo. */
export const typoKey = (word: string) => typoKeysOf(word)[0]!;

/** Typo keys of every part (two syllables or more) of every Hangul run of the values. */
export function typoKeys(values: string[]): string[] {
  const keys = new Set<string>();
  for (const value of values) {
    for (const [match] of value.matchAll(HANGUL_RUN)) {
      const run = match.slice(0, MAX_TYPO_RUN);
      for (let start = 0; start + 2 <= run.length; start++) {
        for (let end = start + 2; end <= run.length; end++) for (const key of typoKeysOf(run.slice(start, end))) keys.add(key);
      }
    }
  }
  return [...keys];
}

export function indexedDocument(document: SearchDocument): IndexedDocument {
  // Decorations dropped as the embedded keys drop them (decorations.ts): `[LUMI-LOG]` is `lumilog`.
  const names = (values: string[]) => [...new Set(values.map(undecoratedText).filter(Boolean))];
  const title = undecoratedText(document.title);
  const source = names(document.sourceNames);
  const members = names(document.memberNames);
  const venue = names(document.venueNames ?? []);
  return {
    scheduleId: document.scheduleId,
    categoryId: document.categoryId,
    date: document.date,
    title,
    source,
    venue,
    members,
    description: undecoratedText(document.description.slice(0, MAX_DESCRIPTION_CHARS)),
    choseong: [...new Set([title, ...source, ...members].map(choseong).filter(Boolean))],
    typo: { title: typoKeys([title]), source: typoKeys(source), venue: typoKeys(venue), members: typoKeys(members) },
  };
}

/**
 * nori `user_dictionary_rules` from the user dictionary's content: its words only (nori takes
 * every entry as a noun, NNG), normalised like the indexed text, without duplicates (nori refuses
 * them) and without `#` (nori reads the rest of the line as a comment).
 */
export function dictionaryRules(content: string): string[] {
  const rules = new Set<string>();
  for (const { word } of parseUserDictionary(content).entries) {
    const rule = normalizeText(word);
    if (rule !== '' && !rule.includes('#') && !/\s/.test(rule)) rules.add(rule);
  }
  return [...rules].sort();
}

const rulesHash = (rules: string[]) => createHash('sha256').update(rules.join('\n')).digest('hex').slice(0, 16);

/** Settings and mappings of one versioned index. */
export function indexDefinition(rules: string[]): API.Indices_Create_RequestBody {
  const text = { type: 'text' as const, analyzer: 'korean', fields: { grams: { type: 'text' as const, analyzer: 'grams', norms: false } } };
  return {
    settings: {
      index: { number_of_shards: 1 },
      analysis: {
        char_filter: {
          // Grams run over the space-free text, as the embedded keys do: `프로미스나인콘서트`
          // is a substring of `프로미스나인 콘서트` once the space is gone.
          spaceless: { type: 'pattern_replace', pattern: '\\s+', replacement: '' },
        },
        tokenizer: {
          korean: {
            type: 'nori_tokenizer',
            decompound_mode: 'mixed',
            discard_punctuation: true,
            ...(rules.length > 0 ? { user_dictionary_rules: rules } : {}),
          },
          grams: { type: 'ngram', min_gram: 2, max_gram: 3, token_chars: [] },
        },
        filter: {
          // Particles (J), endings (E) and the copula (VCP, 이 of 입니다) are not search words.
          korean_particles: { type: 'nori_part_of_speech', stoptags: ['E', 'J', 'VCP'] },
        },
        normalizer: {
          folded: { type: 'custom', filter: ['lowercase'] },
        },
        analyzer: {
          korean: { type: 'custom', tokenizer: 'korean', filter: ['korean_particles', 'lowercase'] },
          grams: { type: 'custom', char_filter: ['spaceless'], tokenizer: 'grams', filter: ['lowercase'] },
        },
      },
    },
    mappings: {
      dynamic: 'strict',
      _meta: { dictionary: rulesHash(rules), format: INDEX_FORMAT },
      properties: {
        scheduleId: { type: 'integer' },
        categoryId: { type: 'integer' },
        date: { type: 'date', format: 'yyyy-MM-dd' },
        title: text,
        source: text,
        venue: text,
        members: text,
        description: text,
        choseong: { type: 'keyword', normalizer: 'folded', ignore_above: 512 },
        typo: { type: 'object', properties: Object.fromEntries(TYPO_FIELDS.map((field) => [field, { type: 'keyword' as const, ignore_above: 256 }])) },
      },
    },
  };
}

type Query = NonNullable<API.Search_RequestBody['query']>;

const escapeWildcard = (value: string) => value.replace(/[\\*?]/g, (c) => `\\${c}`);

/** A field matches a word when nori finds all its tokens, or when the word is a substring of one value. */
function fieldMatches(field: (typeof TEXT_FIELDS)[number], word: string): Query {
  return {
    bool: {
      should: [
        { match: { [field]: { query: word, operator: 'and' } } },
        { match_phrase: { [`${field}.grams`]: { query: word } } },
      ],
      minimum_should_match: 1,
    },
  };
}

const tier = (filter: Query, boost: number): Query => ({ constant_score: { filter, boost } });

function wordQuery(word: string): Query {
  if (isChoseongQuery(word)) {
    // Consonants only (`ㅍㄹㅁ`): the initials of a title, source or member name; a title that is
    // literally these consonants still ranks as a title match.
    return {
      dis_max: {
        queries: [
          tier({ match_phrase: { 'title.grams': { query: word } } }, TIER.title),
          tier({ wildcard: { choseong: { value: `*${escapeWildcard(word)}*` } } }, TIER.choseong),
        ],
      },
    };
  }
  return { dis_max: { queries: TEXT_FIELDS.map((field) => tier(fieldMatches(field, word), TIER[field])) } };
}

/**
 * `word` (a typo candidate) within its keystrokes in a field's typo keys: one of its skeletons
 * equal, jamo (a compound vowel or a cluster is two) `maxTypoEdits` edits apart: one, two from
 * five syllables.
 */
function typoMatches(field: TypoField, word: string): Query {
  const fuzzy = typoKeysOf(word).map((key): Query => ({
    fuzzy: { [`typo.${field}`]: { value: key, fuzziness: maxTypoEdits(word), prefix_length: key.indexOf('|') + 1, transpositions: false } },
  }));
  return fuzzy.length === 1 ? fuzzy[0]! : { bool: { should: fuzzy, minimum_should_match: 1 } };
}

/** A word matched exactly in its best field, or else within one jamo edit (typo tiers, below every exact tier). */
function typoWordQuery(word: string): Query {
  const exact = wordQuery(word);
  if (!isTypoCandidate(word) || isChoseongQuery(word)) return exact;
  return { dis_max: { queries: [exact, ...TYPO_FIELDS.map((field) => tier(typoMatches(field, word), TYPO_TIER[field]))] } };
}

/** Every word matched exactly in a field other than the description: a strong answer, no typo search. */
export function strongQuery(words: string[]): Query {
  return {
    bool: {
      filter: words.map((word) =>
        isChoseongQuery(word) ? wordQuery(word) : { bool: { should: TEXT_FIELDS.filter((field) => field !== 'description').map((field) => fieldMatches(field, word)), minimum_should_match: 1 } },
      ),
    },
  };
}

const allWords = (words: string[], query: (word: string) => Query): Query => ({ bool: { should: words.map(query), minimum_should_match: words.length } });
const SORT: API.Search_RequestBody['sort'] = [{ _score: { order: 'desc' } }, { date: { order: 'desc' } }, { scheduleId: { order: 'desc' } }];

/**
 * The typo search: documents matching every word exactly or within one jamo edit, but not all of
 * them exactly (those are the exact search's).
 */
export function typoSearchBody(words: string[], page: { offset: number; limit: number }): API.Search_RequestBody {
  return {
    query: { bool: { ...allWords(words, typoWordQuery).bool, must_not: [allWords(words, wordQuery)] } },
    sort: SORT,
    from: page.offset,
    size: page.limit,
    track_total_hits: true,
    _source: false,
  };
}

/**
 * Whether each word matches some document alone, exactly or within its typo (`p0`, `p1`, …): one
 * request, no hits, a filter aggregation a word (fan-typing.ts leaves out the words matching nothing).
 */
export function presenceBody(words: string[]): API.Search_RequestBody {
  return {
    size: 0,
    track_total_hits: false,
    _source: false,
    aggregations: Object.fromEntries(words.map((word, i) => [`p${i}`, { filter: typoWordQuery(word) }])),
  };
}

/** The search request body of `words` among the documents dated in `month` (of any year). */
export function monthSearchBody(words: string[], month: number, page: { offset: number; limit: number }): API.Search_RequestBody {
  const { aggregations: _, ...body } = searchBody(words, page);
  return {
    ...body,
    query: {
      bool: {
        must: [allWords(words, wordQuery)],
        filter: [{ script: { script: { lang: 'painless', source: "doc['date'].value.getMonthValue() == params.month", params: { month } } } }],
      },
    },
  };
}

/**
 * The search request body: every word must match (bool.should with minimum_should_match = all).
 * When a word could be a typo, the `strong` aggregation counts the hits that match every word
 * outside the description; none means a typo search follows.
 */
export function searchBody(words: string[], page: { offset: number; limit: number }): API.Search_RequestBody {
  return {
    query: allWords(words, wordQuery),
    sort: SORT,
    from: page.offset,
    size: page.limit,
    // Counted exactly up to the cap; one more says the total is larger (SEARCH_TOTAL_CAP).
    track_total_hits: SEARCH_TOTAL_CAP + 1,
    _source: false,
    ...(words.some(isTypoCandidate) ? { aggregations: { strong: { filter: strongQuery(words) } } } : {}),
  };
}

export interface OpenSearchIndexOptions {
  client: Client;
  /** The alias searches and writes go through; versioned indices are `<alias>-v<timestamp>`. */
  alias: string;
  logger: Logger;
  /** The user dictionary's current content; read at every rebuild. */
  userDictionary: () => Promise<string>;
  analyze?: QueryAnalyzer;
  /** Synonyms applied at query time (default: the shipped ones). */
  synonyms?: SynonymSource;
}

/** An index being filled by a rebuild: live writes go to it too, so the swap loses none of them. */
interface Build {
  index: string;
  /** Ids removed while the build ran; removed again once the bulk load is done. */
  removed: Set<number>;
  /** A live write that did not reach the new index: swapping would lose it, so the build fails. */
  failure: unknown;
}

export class OpenSearchSearchIndex implements SearchIndex {
  readonly engine = 'opensearch' as const;
  private readonly client: Client;
  private readonly alias: string;
  private readonly logger: Logger;
  private readonly userDictionary: () => Promise<string>;
  private readonly analyze: QueryAnalyzer;
  private readonly synonyms: SynonymSource;
  private build: Build | null = null;
  private rebuilding: Promise<unknown> = Promise.resolve();
  private lastVersion = 0;
  private readonly weightsSeen = new RememberedWeights();

  constructor(options: OpenSearchIndexOptions) {
    if (!/^[a-z0-9][a-z0-9_-]*$/.test(options.alias)) throw new Error(`invalid OpenSearch alias "${options.alias}": lowercase letters, digits, - and _`);
    this.client = options.client;
    this.alias = options.alias;
    this.logger = options.logger.child({ component: 'search', engine: 'opensearch' });
    this.userDictionary = options.userDictionary;
    this.analyze = options.analyze ?? plainQueryWords;
    this.synonyms = options.synonyms ?? defaultSynonyms;
  }

  /**
   * Makes sure the alias points at an index built with the current user dictionary; otherwise
   * builds one from `loadDocuments` (first start, or a dictionary changed while nobody rebuilt).
   */
  async ensure(loadDocuments: () => Promise<SearchDocument[]>): Promise<void> {
    const indices = await this.aliasedIndices();
    const wanted = rulesHash(dictionaryRules(await this.userDictionary()));
    if (indices.length === 1) {
      const mapping = await this.client.indices.getMapping({ index: indices[0]! });
      const meta = Object.values(mapping.body)[0]?.mappings?._meta as { dictionary?: string; format?: number } | undefined;
      if (meta?.dictionary === wanted && meta.format === INDEX_FORMAT) return;
      this.logger.info({ index: indices[0], alias: this.alias }, 'user dictionary or index format changed: rebuilding the search index');
    } else {
      this.logger.info({ alias: this.alias, indices }, 'no single index behind the search alias: building one');
    }
    await this.rebuild(await loadDocuments());
  }

  async upsert(documents: SearchDocument[]): Promise<void> {
    if (documents.length === 0) return;
    const build = this.build;
    for (let i = 0; i < documents.length; i += BULK_DOCUMENTS) {
      const chunk = documents.slice(i, i + BULK_DOCUMENTS).map(indexedDocument);
      if (build) {
        for (const document of chunk) build.removed.delete(document.scheduleId);
        await this.toBuild(build, chunk.flatMap((document) => [{ index: { _id: String(document.scheduleId) } }, document]));
      }
      // wait_for: the caller's next search sees its own write.
      await this.bulk(this.alias, chunk.flatMap((document) => [{ index: { _id: String(document.scheduleId) } }, document]), { refresh: 'wait_for', require_alias: true });
    }
  }

  async remove(scheduleIds: number[]): Promise<void> {
    if (scheduleIds.length === 0) return;
    const build = this.build;
    for (let i = 0; i < scheduleIds.length; i += BULK_DOCUMENTS) {
      const chunk = scheduleIds.slice(i, i + BULK_DOCUMENTS);
      const operations = chunk.map((id) => ({ delete: { _id: String(id) } }));
      if (build) {
        for (const id of chunk) build.removed.add(id);
        await this.toBuild(build, operations);
      }
      await this.bulk(this.alias, operations, { refresh: 'wait_for', require_alias: true });
    }
  }

  async search(query: string, page: { offset: number; limit: number }): Promise<SearchPage> {
    const read = understandQuery(query);
    // The words as typed are the text in the title's spellings (before the analyser splits them).
    const understood = { ...read, text: withTitleSpellings(read.text, (await this.synonyms.table()).spellings) };
    const words = await queryWords(this.analyze, understood.text);
    if (words.length === 0 && !understood.date) return { ids: [], total: 0 };
    const offset = Math.max(0, Math.floor(page.offset));
    const window = { offset: Math.min(offset, MAX_RESULT_WINDOW), limit: Math.max(0, Math.min(Math.floor(page.limit), MAX_RESULT_WINDOW - offset)) };
    const engine: WordSearchEngine = {
      exact: (subset, part, all) => this.exactPage(subset, part, undefined, all),
      typos: async (subset) => (await this.searchPage(typoSearchBody(subset, { offset: 0, limit: MERGE_LIMIT }))).ids,
      inMonth: (subset, month, part) => this.exactPage(subset, part, month),
      present: async (subset) => {
        const response = await this.client.search({ index: this.alias, body: presenceBody(subset) });
        const aggregations = response.body.aggregations as Record<string, { doc_count?: number }> | undefined;
        return subset.map((_, i) => (aggregations?.[`p${i}`]?.doc_count ?? 0) > 0);
      },
      weights: (subset) => this.weights(subset),
      onDate: async (forms, date, part) => {
        const response = await this.client.search({ index: this.alias, body: dateSearchBody(forms, date, part, fieldMatches) });
        const hits = response.body.hits;
        const first = hits.hits[0];
        const matched = new Set((first?.matched_queries as string[] | undefined) ?? []);
        const missing = first && part.offset === 0 ? forms.map((_, i) => i).filter((i) => !matched.has(`w${i}`)) : [];
        return { ids: hits.hits.map((hit) => Number(hit._id)), total: typeof hits.total === 'number' ? hits.total : (hits.total?.value ?? 0), ...(missing.length > 0 ? { missing } : {}) };
      },
    };
    return searchAsFansType(engine, words, window, () => rewritesOf(query, words, this.analyze, this.synonyms), understoodBy(understood, this.synonyms));
  }

  /** The words' weights: one request of filter aggregations for the words not asked within a minute. */
  private async weights(words: string[]): Promise<WordWeights | undefined> {
    return this.weightsSeen.get(words, async (missing) => {
      const response = await this.client.search({ index: this.alias, body: weightsBody(missing, fieldMatches) });
      const hits = response.body.hits;
      return weightsOf(missing, typeof hits.total === 'number' ? hits.total : (hits.total?.value ?? 0), response.body.aggregations as Record<string, { doc_count?: number }> | undefined);
    });
  }

  /** Exact matches of every word: the page, the total (capped), and whether one is strong (outside the description). */
  /** Exact matches (within `month`, of any year, when given); with `all`, every match's id too (a second request, when the page does not hold them). */
  private async exactPage(words: string[], window: { offset: number; limit: number }, month?: number, all = false): Promise<SearchPage & { strong: boolean; matches?: number[] }> {
    // One hit more than the page says whether another page follows when the total is capped.
    const probeWindow = { offset: window.offset, limit: Math.min(window.limit + 1, MAX_RESULT_WINDOW - window.offset) };
    const probe = await this.searchPage(month === undefined ? searchBody(words, probeWindow) : monthSearchBody(words, month, probeWindow));
    const ids = probe.ids.slice(0, window.limit);
    if (probe.total > SEARCH_TOTAL_CAP) return { ids, total: SEARCH_TOTAL_CAP, hasMore: probe.ids.length > window.limit, strong: true };
    const strong = probe.aggregations?.strong?.doc_count;
    const found = { ids, total: probe.total, strong: strong === undefined ? probe.total > 0 : strong > 0 };
    if (!all || probe.total <= ids.length) return found;
    const every = { offset: 0, limit: probe.total };
    const { ids: matches } = await this.searchPage(month === undefined ? searchBody(words, every) : monthSearchBody(words, month, every));
    return { ...found, matches };
  }

  private async searchPage(body: API.Search_RequestBody): Promise<SearchPage & { aggregations?: { strong?: { doc_count?: number } } }> {
    const response = await this.client.search({ index: this.alias, body });
    const hits = response.body.hits;
    const total = typeof hits.total === 'number' ? hits.total : (hits.total?.value ?? 0);
    return { ids: hits.hits.map((hit) => Number(hit._id)), total, aggregations: response.body.aggregations as { strong?: { doc_count?: number } } | undefined };
  }

  async rebuild(documents: SearchDocument[]): Promise<number> {
    // One rebuild at a time in this process; a second one waits and then builds afresh.
    const run = this.rebuilding.catch(() => undefined).then(() => this.rebuildNow(documents));
    this.rebuilding = run;
    return run;
  }

  async count(): Promise<number> {
    const response = await this.client.count({ index: this.alias });
    return response.body.count;
  }

  async close(): Promise<void> {
    await this.rebuilding.catch(() => undefined);
    await this.client.close();
  }

  /** Index names the alias points at now (none when it does not exist). */
  private async aliasedIndices(): Promise<string[]> {
    const response = await this.client.indices.getAlias({ name: this.alias }, { ignore: [404] });
    return response.statusCode === 200 ? Object.keys(response.body) : [];
  }

  private nextVersion(): number {
    this.lastVersion = Math.max(Date.now(), this.lastVersion + 1);
    return this.lastVersion;
  }

  private async createVersionedIndex(rules: string[]): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      const index = `${this.alias}-v${this.nextVersion()}`;
      try {
        await this.client.indices.create({ index, body: indexDefinition(rules) });
        return index;
      } catch (error) {
        // Another process took the same millisecond: take the next one.
        const taken = error instanceof errors.ResponseError && error.body?.error?.type === 'resource_already_exists_exception';
        if (!taken || attempt >= 5) throw error;
      }
    }
  }

  private async rebuildNow(documents: SearchDocument[]): Promise<number> {
    const rules = dictionaryRules(await this.userDictionary());
    const index = await this.createVersionedIndex(rules);
    const build: Build = { index, removed: new Set(), failure: undefined };
    this.build = build;
    let swapped = false;
    try {
      for (let i = 0; i < documents.length; i += BULK_DOCUMENTS) {
        const chunk = documents.slice(i, i + BULK_DOCUMENTS).map(indexedDocument).filter((document) => !build.removed.has(document.scheduleId));
        // `create`: a live upsert that already reached the new index is newer than this snapshot.
        const operations = chunk.flatMap((document) => [{ create: { _id: String(document.scheduleId) } }, document]);
        if (operations.length > 0) await this.bulk(index, operations, { ignoreConflicts: true });
      }
      if (build.removed.size > 0) await this.bulk(index, [...build.removed].map((id) => ({ delete: { _id: String(id) } })), {});
      await this.client.indices.refresh({ index });
      if (build.failure !== undefined) throw new Error('a live write missed the new search index during the rebuild', { cause: build.failure });
      const previous = await this.swapAlias(index);
      swapped = true;
      this.build = null;
      this.logger.info({ alias: this.alias, index, documents: documents.length, dictionaryWords: rules.length }, 'search index rebuilt and alias swapped');
      await this.deleteOldIndices(index, previous);
      return documents.length;
    } finally {
      this.build = null;
      if (!swapped) await this.client.indices.delete({ index }, { ignore: [404] }).catch(() => undefined);
    }
  }

  /**
   * Points the alias at `index` only, in one `_aliases` call (remove the old indices, add the new).
   * Another process swapping at the same moment makes the call name an index that is gone: read
   * the alias again and retry. Returns the indices the alias left.
   */
  private async swapAlias(index: string): Promise<string[]> {
    for (let attempt = 1; ; attempt++) {
      const previous = (await this.aliasedIndices()).filter((name) => name !== index);
      try {
        await this.client.indices.updateAliases({
          body: { actions: [...previous.map((old) => ({ remove: { index: old, alias: this.alias } })), { add: { index, alias: this.alias } }] },
        });
        return previous;
      } catch (error) {
        if (!(error instanceof errors.ResponseError && error.statusCode === 404) || attempt >= 3) throw error;
      }
    }
  }

  /** A live write into the index being built; its failure fails the build, not the write. */
  private async toBuild(build: Build, operations: API.Bulk_RequestBody): Promise<void> {
    try {
      await this.bulk(build.index, operations, {});
    } catch (error) {
      build.failure ??= error;
    }
  }

  /** The indices the alias left, and versioned leftovers of rebuilds that died long ago. */
  private async deleteOldIndices(current: string, previous: string[]): Promise<void> {
    const stale = new Set(previous.filter((name) => name !== current));
    try {
      const all = await this.client.indices.get({ index: `${this.alias}-v*` }, { ignore: [404] });
      const aliased = new Set(await this.aliasedIndices());
      for (const name of Object.keys(all.statusCode === 200 ? all.body : {})) {
        const version = Number(/-v(\d+)$/.exec(name)?.[1] ?? Number.NaN);
        if (name !== current && !aliased.has(name) && Date.now() - version > ABANDONED_BUILD_MS) stale.add(name);
      }
      for (const name of stale) await this.client.indices.delete({ index: name }, { ignore: [404] });
    } catch (error) {
      // The new index is live already; old ones only cost disk until the next rebuild.
      this.logger.warn({ err: error, indices: [...stale] }, 'old search indices not deleted');
    }
  }

  private async bulk(
    index: string,
    operations: API.Bulk_RequestBody,
    options: { refresh?: 'wait_for'; require_alias?: boolean; ignoreConflicts?: boolean },
  ): Promise<void> {
    const response = await this.client.bulk({
      index,
      body: operations,
      ...(options.refresh ? { refresh: options.refresh } : {}),
      ...(options.require_alias ? { require_alias: true } : {}),
    });
    if (!response.body.errors) return;
    const failures = response.body.items
      .map((item) => Object.values(item)[0])
      .filter((result) => result?.error && !(options.ignoreConflicts && result.status === 409));
    if (failures.length > 0) {
      const first = failures[0]!;
      throw new Error(`OpenSearch bulk into ${index}: ${failures.length} failed, first ${first._id}: ${first.error?.type}: ${first.error?.reason}`);
    }
  }
}
