export { foldLatinCase, normalizeQuery, normalizeText, tidyText } from './normalize.ts';
export {
  bigrams,
  CharClass,
  charClassOf,
  choseong,
  choseongOfChar,
  isChoseongQuery,
  isHangulSyllable,
  jamoKey,
  jamoOfChar,
} from './jamo.ts';
export { MAX_WORD_LENGTH, parseUserDictionary, POS_TAGS } from './dictionary.ts';
export type { DictionaryEntry, DictionaryError, ParsedDictionary } from './dictionary.ts';
export { KoreanAnalyzer } from './analyzer.ts';
export type { AnalyzerWord, Token } from './analyzer.ts';
export { MAX_SUGGESTIONS, SuggestionIndex } from './suggestion-index.ts';
export type { SuggestionCandidate, SuggestionIndexOptions } from './suggestion-index.ts';
export { convertLayoutSlips, hangulFromLatinKeys } from './layout.ts';
export { DEFAULT_SYNONYM_TABLE, DEFAULT_SYNONYMS, parseSynonymLine, SynonymTable } from './synonyms.ts';
export type { SynonymEntry } from './synonyms.ts';
export { MAX_REWRITES, MAX_VARIANTS_PER_WORD, queryRewrites, wordVariants } from './query-rewrites.ts';
export type { QueryRewrite, RewriteKind } from './query-rewrites.ts';
