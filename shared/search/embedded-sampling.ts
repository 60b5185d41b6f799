// What the sampled documents (`GramStatistics.sample`) say of a query before any statement runs:
// how many match every word and at which score levels (`sampledMatches`), whether a word or its
// typo skeleton is present at all, and the share a typo search would take as candidates.
import { isTypoCandidate, typoSkeletons } from '../korean/typo.ts';
import type { GramStatistics, SampledDocument } from './gram-frequencies.ts';
import { TIER, fieldsOf } from './embedded-keys.ts';

/** Newest documents a typo search counts its matches among when neither the statistics nor a sample can tell (see `typoMatches`). */
export const TYPO_PROBE_ROWS = 200;

/** What the sampled documents say of a query: how many match every word, their share, and their scores. */
export interface SampledMatches {
  count: number;
  share: number;
  /** Matching sampled documents by score (the sum of their words' tiers). */
  levels: Map<number, number>;
}
const sampledMatchesOf = new WeakMap<GramStatistics, Map<string, SampledMatches>>();
/** Queries remembered per statistics read (forgotten all at once past this many). */
const MAX_REMEMBERED_QUERIES = 10_000;

/**
 * The sampled documents (`GramStatistics.sample`) matching every word as the search matches them
 * (a substring of one of the word's fields), counted once per query while the statistics last;
 * undefined without a sample.
 */
export function sampledMatches(words: string[], statistics: GramStatistics): SampledMatches | undefined {
  const sample = statistics.sample;
  if (sample.length === 0) return undefined;
  let remembered = sampledMatchesOf.get(statistics);
  if (!remembered) sampledMatchesOf.set(statistics, (remembered = new Map()));
  const key = words.join(' ');
  let found = remembered.get(key);
  if (!found) {
    const options = words.map(fieldsOf);
    const levels = new Map<number, number>();
    let count = 0;
    // Most documents lack the first word: the documents holding it are found by one search of all
    // the sampled keys (0.4 ms a query when each document's keys were searched in turn).
    for (const index of sampledHolding(words[0]!, statistics)) {
      const document = sample[index]!;
      if (!words.every((word) => document.keys.includes(word))) continue;
      let score = 0;
      for (const [i, word] of words.entries()) {
        const field = options[i]!.find((option) => document[option].includes(word));
        if (field === undefined) {
          score = -1;
          break;
        }
        score += TIER[field];
      }
      if (score < 0) continue;
      count++;
      levels.set(score, (levels.get(score) ?? 0) + 1);
    }
    found = { count, share: count / sample.length, levels };
    if (remembered.size >= MAX_REMEMBERED_QUERIES) remembered.clear();
    remembered.set(key, found);
  }
  return found;
}
export const sampledShare = (words: string[], statistics: GramStatistics) => sampledMatches(words, statistics)?.share;
/** Whether a sampled document holds one of the word's typo skeletons (so some document matches it within a typo, or exactly). */
function sampleHoldsSkeleton(word: string, statistics: GramStatistics): boolean {
  const { typo } = joinedSample(statistics);
  return typoSkeletons(word).some((skeleton) => typo.includes(skeleton));
}

/** Whether a sampled document matches the word alone, exactly or (a typo candidate) by one of its typo skeletons. */
export const sampledPresent = (word: string, statistics: GramStatistics) =>
  (sampledShare([word], statistics) ?? 0) > 0 || (isTypoCandidate(word) && sampleHoldsSkeleton(word, statistics));

/**
 * The share of the sampled documents a typo search of `words` would take as candidates: each
 * mistyped word's skeleton in their typo keys, each other word in one of its fields, and with
 * `someExact` not every word exactly. Undefined without a sample of TYPO_PROBE_ROWS documents.
 */
export function sampledTypoShare(words: string[], someExact: boolean, statistics: GramStatistics): number | undefined {
  const sample = statistics.sample;
  if (sample.length < TYPO_PROBE_ROWS) return undefined;
  const skeletons = words.map((word) => (isTypoCandidate(word) ? typoSkeletons(word) : undefined));
  const fields = words.map(fieldsOf);
  const exactly = (document: SampledDocument, i: number) => fields[i]!.some((field) => document[field].includes(words[i]!));
  let count = 0;
  for (const document of sample) {
    const candidate = words.every((_, i) => skeletons[i] === undefined ? exactly(document, i) : skeletons[i].some((skeleton) => document.typo.includes(skeleton)));
    if (candidate && !(someExact && words.every((_, i) => exactly(document, i)))) count++;
  }
  return count / sample.length;
}

/**
 * Between two sampled documents in `JoinedSample`'s texts: a control character that neither keys
 * nor query words hold (`normalizeText` removes every C0 control), so no word spans two documents.
 */
const DOCUMENT_SEPARATOR = '\u0002';
/** The sampled documents' keys, and their typo keys, each in one text: a word's documents are found by searching it once. */
interface JoinedSample {
  keys: string;
  /** Where each document's keys start in `keys`, and the text's length last. */
  starts: number[];
  typo: string;
}
const joinedSamples = new WeakMap<GramStatistics, JoinedSample>();
function joinedSample(statistics: GramStatistics): JoinedSample {
  let joined = joinedSamples.get(statistics);
  if (!joined) {
    const starts: number[] = [];
    let length = 0;
    for (const document of statistics.sample) {
      starts.push(length);
      length += document.keys.length + 1;
    }
    starts.push(length);
    const keys = statistics.sample.map((document) => document.keys).join(DOCUMENT_SEPARATOR) + DOCUMENT_SEPARATOR;
    joinedSamples.set(statistics, (joined = { keys, starts, typo: statistics.sample.map((document) => document.typo).join(DOCUMENT_SEPARATOR) }));
  }
  return joined;
}
/** The indices of the sampled documents whose keys hold `word`, in order. */
function sampledHolding(word: string, statistics: GramStatistics): number[] {
  if (word === '') return statistics.sample.map((_, i) => i);
  const { keys, starts } = joinedSample(statistics);
  const found: number[] = [];
  for (let at = keys.indexOf(word); at >= 0; ) {
    // The document holding position `at`: the last start at or before it.
    let low = 0;
    let high = starts.length - 1;
    while (high - low > 1) {
      const middle = (low + high) >> 1;
      if (starts[middle]! <= at) low = middle;
      else high = middle;
    }
    found.push(low);
    at = keys.indexOf(word, starts[low + 1]!);
  }
  return found;
}
