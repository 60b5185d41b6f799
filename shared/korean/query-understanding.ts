// One reading of a query, before either engine runs (docs/search.md, "How a query is read"):
//   1. normalised as every stored query string is (normalize.ts: NFKC, invisible and bidi code points
//      removed, whitespace collapsed, Latin case folded);
//   2. a date in it taken out (query-dates.ts: `5/20`, `5월 20일`, `20일`, `june 12`, `6月12日`): it
//      filters or ranks the search; a month word in English or Japanese written as the Korean one (`june` → 6월);
//   3. decorations dropped (decorations.ts: brackets, quotes, emoji; `lumi-log` → lumilog);
//   4. Hangul spellings the lexicon knows written as the title's (`withTitleSpellings`);
//   5. the engine's analyser splits the words; then, only when they match nothing well,
//   6. the words' readings (`queryReadings`): the lexicon's terms (lexicon.ts), romanised Korean,
//      Hangul ⇄ Latin and loanword spellings (transliterate.ts), each reading one more search;
//   7. with a date, each word matched by any of its forms (`wordForms`) among that date's schedules.
import { undecoratedText } from './decorations.ts';
import type { Lexicon, TermReadings } from './lexicon.ts';
import { normalizeText } from './normalize.ts';
import { extractQueryDate, type QueryDate } from './query-dates.ts';
import { withKoreanMonths } from './query-numbers.ts';
import { kanaToHangul } from './kana.ts';
import { hangulToLatin, latinToHangul, loanwordSpellings, romanizedToHangul, tenseSpellings } from './transliterate.ts';

export type { QueryDate } from './query-dates.ts';

/** Readings of a query's words (each one search). */
export const MAX_READINGS = 2;
/** Characters of a query read (the engines take at most eight words of forty characters). */
const MAX_QUERY_CHARS = 400;

export interface UnderstoodQuery {
  /** The query's text without its date and decorations, normalised: what the analyser splits into words. */
  text: string;
  /** The date the query names, if any. */
  date?: QueryDate;
}

/** Steps 1–3: the query's text and date. */
export function understandQuery(query: string): UnderstoodQuery {
  const normal = normalizeText(typeof query === 'string' ? query.slice(0, MAX_QUERY_CHARS) : '');
  const { text, date } = extractQueryDate(normal);
  return { text: withKoreanMonths(undecoratedText(text)), ...(date ? { date } : {}) };
}

const HANGUL_ONLY = /^[가-힣]+$/;

/**
 * Step 4: a Hangul spelling the lexicon knows as another spelling of a Hangul title form is that
 * form before the analyser splits it (`시즌 그리팅스` → 시즌 그리팅, `인스타그람` → 인스타그램): the
 * usual spellings are one word, not a word and a stray syllable. Words of other scripts read as
 * their terms later (`queryReadings`): a Latin word may be in a title as it is.
 */
export function withTitleSpellings(text: string, lexicon: Lexicon): string {
  const words = text.split(' ').filter(Boolean);
  const out: string[] = [];
  for (let i = 0; i < words.length; ) {
    let replaced = false;
    for (let span = Math.min(lexicon.longest, words.length - i); span >= 1 && !replaced; span--) {
      const typed = words.slice(i, i + span);
      if (!HANGUL_ONLY.test(typed.join(''))) continue;
      const readings = lexicon.readingsOf(typed);
      const form = readings && !readings.titleForm ? readings.others[0] : undefined;
      if (!form || !HANGUL_ONLY.test(form.join(''))) continue;
      out.push(...form);
      i += span;
      replaced = true;
    }
    if (!replaced) out.push(words[i++]!);
  }
  return out.join(' ');
}

const LATIN_PLURAL = /^[a-z]{3,}s$/;

/**
 * A term's lexicon readings, or those of its last word's singular (`selfies`, `challenges`,
 * `tickets`), or, for one Latin word, those of the term one edit from it (`fanmeting`: `nearestTerm`).
 */
/** What Latin words are among the titles' words (`SynonymSource.near`): itself, or the words one edit from it. */
export type TitleWords = ReadonlyMap<string, readonly string[]>;

function termReadings(words: string[], lexicon: Lexicon, titleWords?: TitleWords): (TermReadings & { corrected?: string }) | undefined {
  const found = lexicon.readingsOf(words);
  const last = words[words.length - 1]!;
  if (found) return found;
  if (LATIN_PLURAL.test(last)) {
    const stems = last.endsWith('ies') ? [`${last.slice(0, -3)}y`, last.slice(0, -1)] : last.endsWith('es') ? [last.slice(0, -1), last.slice(0, -2)] : [last.slice(0, -1)];
    for (const stem of stems) {
      const singular = lexicon.readingsOf([...words.slice(0, -1), stem]);
      if (singular) return singular;
    }
  }
  if (words.length !== 1) return undefined;
  const near = lexicon.nearestTerm(last, titleWords?.get(last));
  if (near === undefined) return undefined;
  const readings = lexicon.readingsOf([near]);
  // A document's word no group holds: the word spelled as the titles spell it.
  if (readings === undefined) return { titleForm: true, others: [], corrected: near };
  // The corrected word itself comes first when it is a title form (a title may write it so).
  return { titleForm: false, others: readings.titleForm ? [[near], ...readings.others] : readings.others };
}

/** Latin words this short are abbreviations (`ep`, `mv`, `ost`, `in`): read by the lexicon only, never by rule. */
const MIN_RULED_LATIN = 4;

/** A word's own readings (not the lexicon's): loanword spellings, then its other script (Latin, Hangul, kana: kana.ts). */
function wordReadings(word: string): string[] {
  // A Latin word that parses as romanised Korean (nachimban, daon) reads so first; others (lumiland)
  // by loanword rules.
  if (/^[a-z]+$/.test(word) && word.length < MIN_RULED_LATIN) return [];
  const readings = [...tenseSpellings(word), ...loanwordSpellings(word), ...romanizedToHangul(word), ...latinToHangul(word), ...hangulToLatin(word), ...kanaToHangul(word)];
  return [...new Set(readings)].slice(0, MAX_READINGS);
}

/**
 * The readings of a query's words, at most MAX_READINGS, each a list of words (a term of several
 * words as one spaceless word: both engines match it as a phrase). Terms of the lexicon (the longest
 * found at each place, up to its longest term) read as their group: the r-th reading takes a term's
 * r-th other term, a title form staying itself in the first (in both, beside a word `hasVariants`
 * says has fan-shorthand variants); other words read by rule (loanword
 * spellings, Hangul ⇄ Latin). Words with no reading stay as typed; a reading equal to the words is
 * not one.
 */
export function queryReadings(words: string[], lexicon: Lexicon, hasVariants: (word: string) => boolean = () => false, titleWords?: TitleWords): string[][] {
  type Place = { choices: string[]; keepFirst: boolean; ruled?: boolean; corrected?: string };
  const places: Place[] = [];
  for (let i = 0; i < words.length; ) {
    let matched = false;
    for (let span = Math.min(lexicon.longest, words.length - i); span >= 1 && !matched; span--) {
      const readings = termReadings(words.slice(i, i + span), lexicon, titleWords);
      if (readings?.corrected !== undefined) {
        places.push({ choices: [readings.corrected], keepFirst: true, corrected: readings.corrected });
        i += span;
        matched = true;
        continue;
      }
      if (!readings || readings.others.length === 0) continue;
      const typed = words.slice(i, i + span).join('');
      places.push({ choices: [typed, ...readings.others.map((other) => other.join(''))], keepFirst: readings.titleForm });
      i += span;
      matched = true;
    }
    if (matched) continue;
    const word = words[i]!;
    places.push({ choices: [word, ...wordReadings(word)], keepFirst: false, ruled: true });
    i++;
  }
  const readings: string[][] = [];
  const seen = new Set([words.join(' ')]);
  // A slip corrected to a document's own word (`practise` of `[Dance Practice]`) reads first beside
  // the other words as typed: the titles spell them so too.
  if (places.some((place) => place.corrected !== undefined)) {
    const corrected = [...new Set(places.map((place) => place.corrected ?? place.choices[0]!))];
    seen.add(corrected.join(' '));
    readings.push(corrected);
  }
  // A title form reads as its other terms only where no word reads by rule: `루미너스 팬콘서트` is
  // luminous beside 팬콘서트, not beside `fan concert`; nor beside fan shorthand, whose variants
  // need the rewrites (`나침반 음방` is 나침반 beside 음악방송, not `compass 음방`).
  const ruled = places.some((place) => place.ruled && place.choices.length > 1) || words.some(hasVariants);
  for (let r = 0; readings.length < MAX_READINGS && r < MAX_READINGS; r++) {
    const reading = places.map(({ choices, keepFirst }) => {
      if (choices.length === 1) return choices[0]!;
      const at = keepFirst ? (ruled ? 0 : r) : r + 1;
      return choices[Math.min(at, choices.length - 1)]!;
    });
    const unique = [...new Set(reading.filter(Boolean))];
    const key = unique.join(' ');
    if (!seen.has(key)) {
      seen.add(key);
      readings.push(unique);
    }
  }
  return readings;
}

/** Forms a word is matched by on a date (each one more score of the date's documents). */
const MAX_WORD_FORMS = 4;

/** A word and what it reads as alone: its lexicon terms and its own readings, at most MAX_WORD_FORMS. */
export function wordForms(word: string, lexicon: Lexicon, titleWords?: TitleWords): string[] {
  const terms = termReadings([word], lexicon, titleWords);
  const forms = [word, ...(terms?.corrected !== undefined ? [terms.corrected] : []), ...(terms?.others.map((other) => other.join('')) ?? []), ...wordReadings(word)];
  return [...new Set(forms)].slice(0, MAX_WORD_FORMS);
}
