// Numbers as fans write them in three languages (docs/search.md, "Numbers, dates and periods"):
// ordinals (`1st`, `first`, `첫 번째`, `1번째`, `첫째`, `1차`) and anniversaries (`세돌`, `3rd
// anniversary`, `3주년`) as lexicon groups, so one form reads as the others; and English and Japanese
// month words written as the Korean month word (`june` → 6월, `6月` → 6월), which the search then
// reads as the schedules' month when no title holds it. Each is a map read a word.
import type { LexiconGroup } from './lexicon.ts';

/** Native Korean numerals as ordinals and counters take them (첫 번째, 두 번째, 세 번째 …). */
const NATIVE_ORDINAL = ['첫', '두', '세', '네', '다섯', '여섯', '일곱', '여덟', '아홉', '열'];
/** Native Korean numerals for 돌 (a birthday or anniversary counted in years): 첫돌 is the first. */
const NATIVE_DOL = ['첫', '두', '세', '네', '다섯', '여섯', '일곱', '여덟', '아홉', '열'];
const ORDINAL_ORDER = ['첫째', '둘째', '셋째', '넷째', '다섯째', '여섯째', '일곱째', '여덟째', '아홉째', '열째'];
const ENGLISH_ORDINAL = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];
const JAPANESE_ORDINAL = ['1回目', '2回目', '3回目', '4回目', '5回目', '6回目', '7回目', '8回目', '9回目', '10回目'];

/** `1st`, `2nd`, `3rd`, `4th`, `11th`. */
export const ordinalSuffix = (n: number) => `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;

/** The ordinal and anniversary groups, one to ten: the Korean spelled form first (titles write `첫 번째`). */
export const NUMBER_GROUPS: LexiconGroup[] = NATIVE_ORDINAL.flatMap((native, i) => {
  const n = i + 1;
  return [
    { terms: [[native, '번째'], [ordinalSuffix(n)], [`${n}번째`], [ENGLISH_ORDINAL[i]!], [ORDINAL_ORDER[i]!], [`${n}차`], [JAPANESE_ORDINAL[i]!]] },
    {
      terms: [[`${n}주년`], [`${NATIVE_DOL[i]}돌`], [NATIVE_DOL[i]!, '돌'], [ordinalSuffix(n), 'anniversary'], [ENGLISH_ORDINAL[i]!, 'anniversary'], [`${n}周年`]],
    },
  ];
});

const ENGLISH_MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const SHORT_MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_OF = new Map<string, number>([...ENGLISH_MONTHS.map((name, i) => [name, i + 1] as const), ...SHORT_MONTHS.map((name, i) => [name, i + 1] as const), ['sept', 9]]);

/** The month an English month word names (`june`, `jun`, `sept`), or undefined. */
export const englishMonth = (word: string) => MONTH_OF.get(word);

/** English month names as a regular expression's alternatives (longest first). */
export const ENGLISH_MONTH_PATTERN = [...MONTH_OF.keys()].sort((a, b) => b.length - a.length).join('|');

/**
 * A normalised query with its month words in Korean: `june` or `6月` alone is `6월` (the search reads
 * `6월` as the schedules' month when no title holds it). Abbreviations other than `sept` stay words:
 * `mar`, `jun`, `may` alone are too often something else.
 */
export function withKoreanMonths(text: string): string {
  return text
    .split(' ')
    .map((word) => {
      const kanji = /^(1[0-2]|[1-9])月$/.exec(word);
      if (kanji) return `${kanji[1]}월`;
      const month = ENGLISH_MONTHS.indexOf(word) + 1 || (word === 'sept' ? 9 : 0);
      return month && word !== 'may' ? `${month}월` : word;
    })
    .join(' ');
}
