// The document keys the embedded engine stores and asks for: the score of each field (`TIER`), the
// field columns and gram tags, the tagged grams a query word gives a field, their 32-bit `gramKey`s,
// and the SQL conditions on a row's keys (`holds`, `holdsSkeleton`, `contains`, `lacks`). Pure
// functions of text, shared by the writes (shared/search/embedded-writes.ts) and the reads.
import { bigramsOfNormalized, isChoseongQuery } from '../korean/jamo.ts';
import { undecoratedKey } from '../korean/decorations.ts';
import { skeletonBigrams, typoSkeletons } from '../korean/typo.ts';

/** Score of a query word by the field it matched exactly (api-service.md 2.7, plus venues). */
export const TIER = { title: 8, source: 4, venue: 3, members: 2, description: 1, choseong: 4 } as const;
/** Score of a word matched within one jamo edit: below any exact match of the same word. */
export const TYPO_TIER = { title: 0.8, source: 0.4, venue: 0.3, members: 0.2 } as const;
/** A word matched in one of these fields (not only in the description) is a strong match. */
export const STRONG_SCORE = TIER.members;

/** A field's key: normalised, decorations and spaces removed (decorations.ts), as query words are. */
export const spaceless = undecoratedKey;

export type Field = keyof typeof TIER;
export const FIELD_COLUMN: Record<Field, string> = {
  title: 'title_key',
  source: 'source_key',
  venue: 'venue_key',
  members: 'members_key',
  description: 'description_key',
  choseong: 'choseong_key',
};
export const FIELD_TAG: Record<Field, string> = { title: 't', source: 's', venue: 'v', members: 'm', description: 'd', choseong: 'c' };
/** Tag of the typo skeleton's bigrams (of title, sources, venues and members) among the grams. */
export const TYPO_TAG = 'y';

/**
 * The fields a query word can match, best first: its score is the tier of the first one it is a
 * substring of. Initial consonants match the title or the initials; one character is indexed in
 * every field but the description.
 */
export function fieldsOf(word: string): Field[] {
  if (isChoseongQuery(word)) return ['title', 'choseong'];
  return [...word].length >= 2 ? ['title', 'source', 'venue', 'members', 'description'] : ['title', 'source', 'venue', 'members'];
}

/** The tagged grams a field holding `word` must hold: its bigrams, or the character itself. */
export const taggedGrams = (field: Field, word: string) => bigramsOfNormalized(word).map((gram) => FIELD_TAG[field] + gram);

/**
 * The 32-bit key a tagged gram is stored and asked for as (FNV-1a over its UTF-16 code units):
 * `gram_keys` holds them, not the text (migration 018). Two grams sharing a key only add candidates,
 * which are all checked on their text keys.
 */
export const gramKey = (gram: string) => fnv(FNV_OFFSET, gram, 0, gram.length) | 0;
const FNV_OFFSET = 0x811c9dc5;
/** FNV-1a continued from `hash` over the code units text[from, to). */
function fnv(hash: number, text: string, from: number, to: number): number {
  for (let i = from; i < to; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash;
}

/**
 * Adds to `keys` the gramKey of `tag` + each bigram of `part` (pairs of code points, or the part
 * itself when it is one code point: bigramsOfNormalized), and with `characters` of `tag` + each
 * code point, hashing slices of `part` in place instead of building each gram's string.
 */
export function addGramKeys(keys: Set<number>, tag: string, part: string, characters: boolean): void {
  const tagged = fnv(FNV_OFFSET, tag, 0, tag.length);
  const starts: number[] = [];
  for (let i = 0; i < part.length; i++) {
    starts.push(i);
    const unit = part.charCodeAt(i);
    // A surrogate pair is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < part.length && (part.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
  }
  starts.push(part.length);
  const points = starts.length - 1;
  if (points === 1) keys.add(fnv(tagged, part, 0, part.length) | 0);
  for (let i = 0; i + 1 < points; i++) keys.add(fnv(tagged, part, starts[i]!, starts[i + 2]!) | 0);
  if (characters) for (let i = 0; i < points; i++) keys.add(fnv(tagged, part, starts[i]!, starts[i + 1]!) | 0);
}
/** The condition that a document holds every one of `grams` (a GIN containment of their keys). */
export const holds = (grams: Iterable<string>, param: (value: unknown) => string) => `gram_keys @> ${param([...new Set([...grams].map(gramKey))])}::int[]`;

/** The tagged bigrams of each of a word's typo skeletons (one, or two for a word with a compound vowel). */
export const typoGramSets = (word: string) => typoSkeletons(word).map((skeleton) => skeletonBigrams(skeleton).map((gram) => TYPO_TAG + gram));
/** The row condition that a document's typo keys hold one of the word's typo skeletons. */
export const holdsSkeleton = (word: string, param: (value: unknown) => string) => {
  const conditions = typoSkeletons(word).map((skeleton) => contains('typo_key', param(skeleton)));
  return conditions.length === 1 ? conditions[0]! : `(${conditions.join(' OR ')})`;
};

/**
 * The SQL condition that `column` holds the parameter `text` as a substring (`lacks`: that it does
 * not). strpos rather than LIKE '%…%': LIKE steps through the text a character at a time where
 * strpos searches its bytes, and scoring is most of a search's time: a walk scoring the newest
 * 2,836 documents for 지헌 (five fields each) took 6.5 ms instead of 9.3. The planner also
 * estimates strpos without running a pattern over the column's statistics.
 */
export const contains = (column: string, text: string) => `strpos(${column}, ${text}) > 0`;
export const lacks = (column: string, text: string) => `strpos(${column}, ${text}) = 0`;
