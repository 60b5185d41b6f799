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
