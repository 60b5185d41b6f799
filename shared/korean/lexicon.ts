// The bilingual lexicon (shared/korean/lexicon-data.ts, plus the administrators' lines of the same
// form): groups of terms that are one word to a fan, Korean and English, with their usual spellings.
// A query term (one to three words) found in a group reads as the group's other terms at query time
// (never in the index: an edit needs no rebuild). The first term of a line is the form titles use: a
// query holding another term reads as it first; a query holding it reads as the next term (the
// English word for a Korean title word, and the reverse) in the second reading.
import { undecoratedText } from './decorations.ts';
import { DEFAULT_LEXICON } from './lexicon-data.ts';
import { LatinVocabulary, NEAR_WORD } from './latin-vocabulary.ts';

/** Terms a line may hold, words a term, characters a word. */
export const MAX_LEXICON_TERMS = 12;
export const MAX_LEXICON_TERM_WORDS = 3;
const MAX_LEXICON_WORD_CHARS = 40;
/** Lexicon lines read from one dictionary (more are reported as errors). */
export const MAX_LEXICON_LINES = 2_000;

const ARROWS = '<=>';

export interface LexiconGroup {
  /** Each term's words, normalised without decorations; the first is the form titles use. */
  terms: string[][];
  /**
   * Every term reads as the first alone, never as another of the group: a place, which the
   * documents name by that form (their places are added by it), so `incheon` is 인천 in every
   * reading, not 인천광역시 in the second.
   */
  canonical?: boolean;
}

/** Whether a dictionary line is a lexicon line (`term <=> term | term`). */
export const isLexiconLine = (line: string) => line.includes(ARROWS);

/** Whether a term is written in Hangul (else Latin, digits). */
const isHangul = (words: readonly string[]) => /[가-힣]/.test(words.join(''));

/** The key a term is looked up by: its words joined without spaces. */
const keyOf = (words: readonly string[]) => words.join('');

/** Parses one lexicon line; a string is the Korean message of what is wrong with it. */
export function parseLexiconLine(line: string): LexiconGroup | string {
  const sides = line.split(ARROWS);
  if (sides.length !== 2) return '한 줄에 "<=>"는 하나만 쓸 수 있습니다.';
  const terms = [sides[0]!, ...sides[1]!.split('|')].map((term) => undecoratedText(term)).filter(Boolean).map((term) => term.split(' '));
  if (terms.length < 2) return '같은 말을 두 개 이상 적어 주세요. "단어 <=> 같은 말 | 같은 말" 형식입니다.';
  if (undecoratedText(sides[0]!) === '') return '"<=>" 앞의 단어가 비어 있습니다.';
  if (terms.length > MAX_LEXICON_TERMS) return `한 줄에 같은 말은 ${MAX_LEXICON_TERMS}개까지 적을 수 있습니다.`;
  if (terms.some((words) => words.length > MAX_LEXICON_TERM_WORDS)) return `같은 말 하나는 ${MAX_LEXICON_TERM_WORDS}단어까지 적을 수 있습니다.`;
  if (terms.some((words) => words.some((word) => [...word].length > MAX_LEXICON_WORD_CHARS))) return `단어가 너무 깁니다(${MAX_LEXICON_WORD_CHARS}자 이하).`;
  return { terms };
}

/** Lexicon lines of a text, bad ones and comments skipped. */
export function lexiconGroups(text: string, limit = MAX_LEXICON_LINES): LexiconGroup[] {
  const groups: LexiconGroup[] = [];
  for (const line of text.split('\n')) {
    if (!isLexiconLine(line) || line.trimStart().startsWith('#')) continue;
    const group = parseLexiconLine(line.replace(/\r$/, ''));
    if (typeof group !== 'string') groups.push(group);
    if (groups.length >= limit) break;
  }
  return groups;
}

/** What a term reads as: `first`, when it is the form titles use (it then stays itself first). */
export interface TermReadings {
  /** Whether the term is the first of one of its groups. */
  titleForm: boolean;
  /** The other terms, best first: the title forms of the groups it is not first in, then the other terms of those it is. */
  others: string[][];
}

export class Lexicon {
  private readonly byKey = new Map<string, TermReadings>();
  /** Words of the longest term. */
  readonly longest: number;

  constructor(groups: Iterable<LexiconGroup> = [], withDefaults = true) {
    const all = [...(withDefaults ? DEFAULT_GROUPS : []), ...groups];
    let longest = 1;
    const seconds = new Map<string, string[][]>();
    for (const { terms, canonical } of all) {
      const [first, ...rest] = terms as [string[], ...string[][]];
      for (const [i, term] of terms.entries()) {
        const key = keyOf(term);
        longest = Math.max(longest, term.length);
        const readings = this.byKey.get(key) ?? { titleForm: false, others: [] };
        if (i === 0) {
          readings.titleForm = true;
          const later = seconds.get(key) ?? [];
          if (!canonical) later.push(...rest.filter((other) => keyOf(other) !== key));
          seconds.set(key, later);
        } else {
          if (keyOf(first) !== key && !readings.others.some((other) => keyOf(other) === keyOf(first))) readings.others.push(first);
          // After the title forms: the group's terms in the other script (`music video` → 뮤직비디오
          // beside MV), for titles that write the word another way than the title form.
          const later = seconds.get(key) ?? [];
          if (!canonical) later.push(...rest.filter((other) => keyOf(other) !== key && isHangul(other) !== isHangul(term)));
          seconds.set(key, later);
        }
        this.byKey.set(key, readings);
      }
    }
    // A term's other spellings come after the title forms it reads as elsewhere.
    for (const [key, later] of seconds) {
      const readings = this.byKey.get(key)!;
      for (const other of later) if (!readings.others.some((known) => keyOf(known) === keyOf(other))) readings.others.push(other);
    }
    this.longest = longest;
  }

  /** Latin one-word terms filed for one-edit lookups: built on first use. */
  private latinTerms: LatinVocabulary | undefined;

  /**
   * The Latin word one edit from a typed one (a letter missing, extra, changed, or two letters
   * swapped), for a word of MIN_NEAR_LETTERS or more that no group holds and no document title
   * spells: among the lexicon's one-word terms and the documents' words (`fanmeting` → fanmeeting,
   * `showcsae` → showcase, `tokio` → tokyo, `practise` → practice of `[Dance Practice]`). The work
   * grows with the word, not with the lexicon or the documents (latin-vocabulary.ts). `inTitles` is
   * what the word is among the titles' words (`SynonymSource.near`): itself when a title holds it,
   * else the words one edit from it. Undefined when none is, or when two are (a guess between two
   * words is no reading).
   */
  nearestTerm(word: string, inTitles: readonly string[] = []): string | undefined {
    if (!NEAR_WORD.test(word) || this.byKey.has(word) || inTitles.includes(word)) return undefined;
    this.latinTerms ??= new LatinVocabulary(this.byKey.keys());
    const found = this.latinTerms.near(word);
    for (const other of inTitles) found.add(other);
    return found.size === 1 ? [...found][0] : undefined;
  }

  /** The readings of a term given as its words (normalised), or undefined when no group holds it. */
  readingsOf(words: readonly string[]): TermReadings | undefined {
    return this.byKey.get(keyOf(words));
  }

  get size(): number {
    return this.byKey.size;
  }
}

const DEFAULT_GROUPS = lexiconGroups(DEFAULT_LEXICON, Number.POSITIVE_INFINITY);

/** The shipped lexicon alone. */
export const DEFAULT_LEXICON_TABLE = new Lexicon();
