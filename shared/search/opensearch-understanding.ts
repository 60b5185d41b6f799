// What the OpenSearch engine adds for the query-understanding step (shared/korean/query-understanding.ts),
// as request bodies: the search of a date a query names, and the words' weights (remembered a minute). The per-field match
// of a word is the engine's own (`fieldMatch`, passed in), so both rank as its other searches do.
import type { API } from '@opensearch-project/opensearch';
import type { QueryDate } from '../korean/query-dates.ts';
import type { WordWeights } from './fan-typing.ts';

type Query = NonNullable<API.Search_RequestBody['query']>;
export type TextField = 'title' | 'source' | 'venue' | 'members' | 'description';
type FieldMatch = (field: TextField, word: string) => Query;

const TIERS: Record<TextField, number> = { title: 8, source: 4, venue: 3, members: 2, description: 1 };
/** Added to a word's tier when it matches: documents matching more words come first, whatever their fields. */
const WORD_HIT = 100;
const MEMBER_WEIGHT = 0.1;

/** The date filter: one day as a term, else a script on the month, day and year given. */
export function dateFilter(date: QueryDate): Query {
  if (date.year !== undefined && date.month !== undefined && date.day !== undefined) {
    return { term: { date: `${date.year}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}` } };
  }
  const checks: string[] = [];
  const params: Record<string, number> = {};
  if (date.year !== undefined) {
    checks.push("doc['date'].value.getYear() == params.year");
    params.year = date.year;
  }
  if (date.month !== undefined) {
    checks.push("doc['date'].value.getMonthValue() == params.month");
    params.month = date.month;
  }
  if (date.day !== undefined) {
    checks.push("doc['date'].value.getDayOfMonth() == params.day");
    params.day = date.day;
  }
  return { script: { script: { lang: 'painless', source: checks.join(' && '), params } } };
}

/**
 * The documents of `date`, ranked by how many words they match (a word by the best field of any of
 * its forms), then by that field's tier, then newest first; each word named `w<i>`, so a hit's
 * `matched_queries` tells which words it matches.
 */
export function dateSearchBody(forms: string[][], date: QueryDate, page: { offset: number; limit: number }, fieldMatch: FieldMatch): API.Search_RequestBody {
  const words = forms.map((alternatives, i): Query => ({
    dis_max: {
      queries: alternatives.flatMap((form) =>
        (Object.keys(TIERS) as TextField[]).map((field): Query => ({ constant_score: { filter: fieldMatch(field, form), boost: WORD_HIT + TIERS[field] } })),
      ),
      _name: `w${i}`,
    },
  }));
  return {
    query: { bool: { filter: [dateFilter(date)], ...(words.length > 0 ? { should: words, minimum_should_match: 1 } : {}) } },
    sort: [{ _score: { order: 'desc' } }, { date: { order: 'desc' } }, { scheduleId: { order: 'desc' } }],
    from: page.offset,
    size: page.limit,
    track_total_hits: true,
    _source: false,
  };
}

/** Per word, the documents naming it (`n<i>`: title, source or venue) and holding it as a member (`m<i>`): no hits. */
export function weightsBody(words: string[], fieldMatch: FieldMatch): API.Search_RequestBody {
  const named = (word: string): Query => ({ bool: { should: (['title', 'source', 'venue'] as const).map((field) => fieldMatch(field, word)), minimum_should_match: 1 } });
  return {
    size: 0,
    track_total_hits: true,
    _source: false,
    aggregations: Object.fromEntries(words.flatMap((word, i) => [[`n${i}`, { filter: named(word) }], [`m${i}`, { filter: fieldMatch('members', word) }]])),
  };
}

/** The weights of a `weightsBody` response: each word's share of the documents naming it, a member's name's a tenth of it. */
export function weightsOf(words: string[], total: number, aggregations: Record<string, { doc_count?: number }> | undefined): WordWeights | undefined {
  if (total <= 0 || !aggregations) return undefined;
  const shares = words.map((_, i) => {
    const named = aggregations[`n${i}`]?.doc_count ?? 0;
    const members = aggregations[`m${i}`]?.doc_count ?? 0;
    return (named / total) * (members > 0 ? MEMBER_WEIGHT : 1);
  });
  return { shares, documents: total };
}

/** How long a word's weight is used before it is asked again, and how many words are remembered. */
const WEIGHTS_MAX_AGE_MS = 60_000;
const MAX_REMEMBERED_WEIGHTS = 10_000;

/**
 * Words' weights remembered for a minute (estimates: writes change them little), so a query of words
 * asked before sends no request; `ask` is called for the others only.
 */
export class RememberedWeights {
  private readonly byWord = new Map<string, { share: number; documents: number; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async get(words: string[], ask: (missing: string[]) => Promise<WordWeights | undefined>): Promise<WordWeights | undefined> {
    const now = this.now();
    const fresh = (word: string) => (this.byWord.get(word)?.at ?? Number.NEGATIVE_INFINITY) > now - WEIGHTS_MAX_AGE_MS;
    let missing = [...new Set(words.filter((word) => !fresh(word)))];
    if (missing.length > 0) {
      // Forgotten all at once past the bound: this query's words are then all asked.
      if (this.byWord.size + missing.length > MAX_REMEMBERED_WEIGHTS) {
        this.byWord.clear();
        missing = [...new Set(words)];
      }
      const found = await ask(missing);
      if (!found) return undefined;
      missing.forEach((word, i) => this.byWord.set(word, { share: found.shares[i]!, documents: found.documents, at: now }));
    }
    const known = words.map((word) => this.byWord.get(word)!);
    return { shares: known.map((entry) => entry.share), documents: Math.max(...known.map((entry) => entry.documents)) };
  }
}
