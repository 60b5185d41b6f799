// The bilingual lexicon (shared/korean/lexicon-data.ts, plus the administrators' lines of the same
// form): groups of terms that are one word to a fan, Korean and English, with their usual spellings.
// A query term (one to three words) found in a group reads as the group's other terms at query time
// (never in the index: an edit needs no rebuild). The first term of a line is the form titles use: a
// query holding another term reads as it first; a query holding it reads as the next term (the
// English word for a Korean title word, and the reverse) in the second reading.
import { undecoratedText } from './decorations.ts';
import { DEFAULT_LEXICON } from './lexicon-data.ts';

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
    for (const { terms } of all) {
      const [first, ...rest] = terms as [string[], ...string[][]];
      for (const [i, term] of terms.entries()) {
        const key = keyOf(term);
        longest = Math.max(longest, term.length);
        const readings = this.byKey.get(key) ?? { titleForm: false, others: [] };
        if (i === 0) {
          readings.titleForm = true;
          const later = seconds.get(key) ?? [];
          later.push(...rest.filter((other) => keyOf(other) !== key));
          seconds.set(key, later);
        } else {
          if (keyOf(first) !== key && !readings.others.some((other) => keyOf(other) === keyOf(first))) readings.others.push(first);
          // After the title forms: the group's terms in the other script (`music video` → 뮤직비디오
          // beside MV), for titles that write the word another way than the title form.
          const later = seconds.get(key) ?? [];
          later.push(...rest.filter((other) => keyOf(other) !== key && isHangul(other) !== isHangul(term)));
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

  /** Latin one-word terms by each spelling one letter shorter (`fanmeeting` under `fanmeting`, …): built on first use. */
  private deletions: Map<string, string[]> | undefined;

  /**
   * The Latin one-word term one edit from a word (a letter missing, extra, changed, or two letters
   * swapped), for a word of MIN_NEAR_LETTERS or more with no group of its own: `fanmeting` →
   * fanmeeting, `showcsae` → showcase, `tokio` → tokyo. Symmetric deletions: a word's own deletions
   * are looked up in one map, so the work grows with the word, not with the lexicon. Undefined when
   * none is, or when two are (a guess between two words is no reading).
   */
  nearestTerm(word: string): string | undefined {
    if (!NEAR_WORD.test(word) || this.byKey.has(word)) return undefined;
    this.deletions ??= this.buildDeletions();
    const found = new Set<string>();
    for (const variant of [word, ...deletionsOf(word)]) {
      for (const term of this.deletions.get(variant) ?? []) if (withinOneEdit(word, term)) found.add(term);
    }
    return found.size === 1 ? [...found][0] : undefined;
  }

  private buildDeletions(): Map<string, string[]> {
    const map = new Map<string, string[]>();
    const add = (key: string, term: string) => {
      const list = map.get(key) ?? [];
      if (!list.includes(term)) list.push(term);
      map.set(key, list);
    };
    for (const key of this.byKey.keys()) {
      if (!NEAR_WORD.test(key)) continue;
      add(key, key);
      for (const deletion of deletionsOf(key)) add(deletion, key);
    }
    return map;
  }

  /** The readings of a term given as its words (normalised), or undefined when no group holds it. */
  readingsOf(words: readonly string[]): TermReadings | undefined {
    return this.byKey.get(keyOf(words));
  }

  get size(): number {
    return this.byKey.size;
  }
}

/** Latin words this long or longer are looked up within one edit (shorter ones are abbreviations and too close to one another). */
const MIN_NEAR_LETTERS = 5;
const NEAR_WORD = new RegExp(`^[a-z]{${MIN_NEAR_LETTERS},30}$`);

/** Each spelling of a word with one letter left out. */
function deletionsOf(word: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i < word.length; i++) out.add(word.slice(0, i) + word.slice(i + 1));
  return [...out];
}

/** Whether two words are one edit apart: a letter missing, extra, changed, or two neighbours swapped. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

const DEFAULT_GROUPS = lexiconGroups(DEFAULT_LEXICON, Number.POSITIVE_INFINITY);

/** The shipped lexicon alone. */
export const DEFAULT_LEXICON_TABLE = new Lexicon();
