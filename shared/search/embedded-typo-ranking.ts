// Ranking of a typo search's candidates in JavaScript (`rankTypoMatches`): per word its exact tier
// or else the typo tier of the best field it is within one jamo edit of, then newer first.
import { isTypoCandidate, matchesWithTypo, typoSkeletons } from '../korean/typo.ts';
import { TIER, TYPO_TIER } from './embedded-keys.ts';

/** A typo candidate's keys and the exact score of each query word computed in SQL (`typoMatches`). */
export type TypoCandidate = { schedule_id: number; day: string; title_key: string; source_key: string; venue_key: string; members_key: string; scores: number[] };

/** The fields a typo search ranks a candidate's words by, best first: each one's typo and exact tiers. */
const TYPO_FIELDS = [
  { column: 'title_key', typo: TYPO_TIER.title, exact: TIER.title },
  { column: 'source_key', typo: TYPO_TIER.source, exact: TIER.source },
  { column: 'venue_key', typo: TYPO_TIER.venue, exact: TIER.venue },
  { column: 'members_key', typo: TYPO_TIER.members, exact: TIER.members },
] as const;

/**
 * Typo candidates ranked: per word the exact field tier (from the SQL scores or the keys) or else
 * the typo tier of the best field it is within one jamo edit of, then newer first; a candidate with
 * a word matching neither way is dropped. Nothing is allocated per candidate but its field
 * skeletons: ranking 300 candidates was the largest share of a typo query's JavaScript (1.3 ms of
 * 7 on the benchmark's typo queries, a third of it creating closures and tuples per row).
 */
export function rankTypoMatches(words: string[], rows: TypoCandidate[]): number[] {
  const ranked: { id: number; date: string; score: number }[] = [];
  const wordSkeletons = words.map((word) => (isTypoCandidate(word) ? typoSkeletons(word) : undefined));
  // Each field's typo skeletons, computed once a row when a word first needs them.
  const fieldSkeletons: (string[] | undefined)[] = [];
  for (const row of rows) {
    fieldSkeletons.length = 0;
    let score = 0;
    for (let i = 0; i < words.length && score >= 0; i++) {
      const tier = Number(row.scores[i] ?? 0) || typoWordTier(row, words[i]!, wordSkeletons[i], fieldSkeletons);
      score = tier > 0 ? score + tier : -1;
    }
    if (score >= 0) ranked.push({ id: row.schedule_id, date: row.day, score });
  }
  ranked.sort((a, b) => b.score - a.score || (a.date < b.date ? 1 : a.date > b.date ? -1 : 0) || b.id - a.id);
  return ranked.map((match) => match.id);
}

/**
 * A word's tier in a typo candidate, best field first: exact in a field, else within a typo of it
 * (`skeletons`, the word's, when it may be corrected); 0 when neither. `fieldSkeletons` holds the
 * fields' typo skeletons computed so far.
 */
function typoWordTier(row: TypoCandidate, word: string, skeletons: string[] | undefined, fieldSkeletons: (string[] | undefined)[]): number {
  for (const { column, exact } of TYPO_FIELDS) if (row[column].includes(word)) return exact;
  if (skeletons === undefined) return 0;
  for (let field = 0; field < TYPO_FIELDS.length; field++) {
    const { column, typo } = TYPO_FIELDS[field]!;
    if (matchesWithTypo(row[column], word, (fieldSkeletons[field] ??= typoSkeletons(row[column])), skeletons)) return typo;
  }
  return 0;
}
