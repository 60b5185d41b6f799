// The query words both search engines search (analysed, bounded) and the bounded rewrites of a
// query (keyboard-layout slip, synonyms, spacing) tried when its words find nothing good.
import { normalizeText } from '../korean/normalize.ts';
import { convertLayoutSlips } from '../korean/layout.ts';
import { MAX_REWRITES, queryRewrites, type QueryRewrite } from '../korean/query-rewrites.ts';
import { queryReadings, understandQuery, wordForms, type UnderstoodQuery } from '../korean/query-understanding.ts';
import type { Understood } from './fan-typing.ts';
import type { SynonymSource } from './synonym-source.ts';

const MAX_QUERY_WORDS = 8;
const MAX_WORD_LENGTH = 40;

/** Query words as the index sees them; `analyze` may strip particles and split unspaced input. */
export type QueryAnalyzer = (query: string) => Promise<string[]> | string[];

export const plainQueryWords: QueryAnalyzer = (query) =>
  normalizeText(query)
    .split(' ')
    .filter(Boolean);

/** The query words both engines search: analysed, spaces removed, at most MAX_WORD_LENGTH long, MAX_QUERY_WORDS of them. */
export async function queryWords(analyze: QueryAnalyzer, query: string): Promise<string[]> {
  const words = (await analyze(query)).map((word) => word.replace(/ /g, '').slice(0, MAX_WORD_LENGTH)).filter(Boolean);
  return [...new Set(words)].slice(0, MAX_QUERY_WORDS);
}

/**
 * The bounded rewrites of a query (shared/korean/query-rewrites.ts): its keyboard-layout reading
 * (analysed like the query) first when some Latin word spells Hangul, then the words' variants.
 */
export async function rewritesOf(query: string, words: string[], analyze: QueryAnalyzer, synonyms: SynonymSource): Promise<QueryRewrite[]> {
  // The keyboard-layout reading needs the letters' case (Rk → 까): it reads the query as typed.
  const layout = convertLayoutSlips(query.slice(0, 200));
  const layoutWords = layout === undefined ? undefined : await queryWords(analyze, layout);
  const [table, titleWords] = await Promise.all([synonyms.table(), synonyms.near?.(words)]);
  const rewrites = queryRewrites(words, table, layoutWords, queryReadings(words, table.lexicon, (word) => table.alternativesOf(word).length > 0, titleWords));
  // Shorthand the analyser split (연습영상 → 연습, 영상) is looked up as typed too.
  const typed = await queryWords(plainQueryWords, understandQuery(query).text);
  if (rewrites.length < MAX_REWRITES && typed.join(' ') !== words.join(' ')) {
    for (const rewrite of queryRewrites(typed, table)) {
      if (rewrites.length < MAX_REWRITES && rewrite.kind === 'synonym' && !rewrites.some((other) => other.words.join(' ') === rewrite.words.join(' '))) rewrites.push(rewrite);
    }
    // The words as typed: a mistyped run-together word (가요데축재) the analyser split is corrected whole.
    if (rewrites.length < MAX_REWRITES) rewrites.push({ kind: 'spacing', words: typed });
  }
  return rewrites;
}

/** The query-understanding step's date and the words' forms (each word, its lexicon terms and transliterations), for `searchAsFansType`. */
export function understoodBy(understood: UnderstoodQuery, synonyms: SynonymSource): Understood {
  return {
    ...(understood.date ? { date: understood.date } : {}),
    typed: understood.text.split(' ').filter(Boolean).map((word) => word.slice(0, 40)),
    forms: async (words) => {
      const [table, titleWords] = await Promise.all([synonyms.table(), synonyms.near?.(words)]);
      return words.map((word) => wordForms(word, table.lexicon, titleWords));
    },
    readings: async (words) => {
      const [table, titleWords] = await Promise.all([synonyms.table(), synonyms.near?.(words)]);
      return queryReadings(words, table.lexicon, undefined, titleWords);
    },
  };
}
