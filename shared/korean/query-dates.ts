// Dates as fans write them in a search: `5/20`, `5.20`, `05.20.`, `2026.5.20`, `2026-05-20`,
// `5월 20일`, `5월20일`, `2026년 5월 20일`, `20일`, `2026년 5월`; in English `june 12`, `jun 12th`,
// `12th of june`, `june 12, 2026`, `the 3rd`; in Japanese `6月12日`, `2026年6月12日`, `12日`. Read from a normalised query (NFKC: a
// full-width `５／２０` is `5/20` by then); each found date leaves the query's words and filters or ranks
// the search by that day. A month word alone (`5월`) is not read here: titles hold such words
// (`5월 스케줄 공개`), so the search reads it as a month only when no text holds it (fan-typing.ts).

import { englishMonth, ENGLISH_MONTH_PATTERN } from './query-numbers.ts';

/** A day, a month of any year, or a day of any month, as the query gave it. */
export interface QueryDate {
  year?: number;
  month?: number;
  day?: number;
  /** The date as typed (normalised), named in `ignoredWords` when no schedule of that date matches. */
  text: string;
}

// Longest forms first; each alone, not inside a longer number (`12/345`) or a decimal (`1.5배`).
const PATTERNS: { pattern: RegExp; parts: ('year' | 'month' | 'day')[] }[] = [
  { pattern: /(?<![\p{L}\p{N}.\/-])(\d{4})\s*년\s*(\d{1,2})\s*월\s*(\d{1,2})\s*일(?![\p{N}])/gu, parts: ['year', 'month', 'day'] },
  { pattern: /(?<![\p{L}\p{N}.\/-])(\d{4})\s*([./-])\s*(\d{1,2})\s*\2\s*(\d{1,2})\.?(?![\p{N}\p{L}.\/-])/gu, parts: ['year', 'month', 'day'] },
  { pattern: /(?<![\p{L}\p{N}.\/-])(\d{1,2})\s*월\s*(\d{1,2})\s*일(?![\p{N}])/gu, parts: ['month', 'day'] },
  { pattern: /(?<![\p{L}\p{N}.\/-])(\d{1,2})\s*[./]\s*(\d{1,2})\.?(?![\p{N}\p{L}.\/-])/gu, parts: ['month', 'day'] },
  { pattern: /(?<![\p{L}\p{N}.\/-])(\d{4})\s*년\s*(\d{1,2})\s*월(?![\p{N}])/gu, parts: ['year', 'month'] },
  // A day alone, as its own word: `20일` (not `20일차`, `1일1깡`).
  { pattern: /(?<![\p{L}\p{N}.\/-])(\d{1,2})일(?=\s|$)/gu, parts: ['day'] },
  // Japanese: the same order with 年, 月, 日.
  { pattern: /(?<![\p{L}\p{N}])(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日/gu, parts: ['year', 'month', 'day'] },
  { pattern: /(?<![\p{L}\p{N}])(\d{1,2})\s*月\s*(\d{1,2})\s*日/gu, parts: ['month', 'day'] },
  { pattern: /(?<![\p{L}\p{N}])(\d{1,2})日(?=\s|$)/gu, parts: ['day'] },
  // English: a month's name (or its abbreviation) and a day, either way round, an ordinal or not.
  { pattern: new RegExp(`(?<![\\p{L}\\p{N}])(${ENGLISH_MONTH_PATTERN})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?(?![\\p{L}\\p{N}])`, 'gu'), parts: ['month', 'day', 'year'] },
  { pattern: new RegExp(`(?<![\\p{L}\\p{N}])(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(${ENGLISH_MONTH_PATTERN})(?:,?\\s+(\\d{4}))?(?![\\p{L}\\p{N}])`, 'gu'), parts: ['day', 'month', 'year'] },
  // `the 3rd`: a day of any month (`3rd` alone is an ordinal: `3rd anniversary`).
  { pattern: /(?<![\p{L}\p{N}])the\s+(\d{1,2})(?:st|nd|rd|th)(?![\p{L}\p{N}])/gu, parts: ['day'] },
];

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function valid(date: Omit<QueryDate, 'text'>): boolean {
  if (date.year !== undefined && (date.year < 1900 || date.year > 2100)) return false;
  if (date.month !== undefined && (date.month < 1 || date.month > 12)) return false;
  if (date.day !== undefined && (date.day < 1 || date.day > (date.month === undefined ? 31 : DAYS_IN_MONTH[date.month - 1]!))) return false;
  return true;
}

/**
 * The first date of a normalised query and the query without it; the query unchanged and no date
 * when it names none (or only impossible ones: `13/45` stays words).
 */
export function extractQueryDate(query: string): { text: string; date?: QueryDate } {
  for (const { pattern, parts } of PATTERNS) {
    pattern.lastIndex = 0;
    for (const match of query.matchAll(pattern)) {
      const numbers = match.slice(1).filter((group) => group !== undefined && (/^\d+$/.test(group) || englishMonth(group) !== undefined)).map((group) => englishMonth(group!) ?? Number(group));
      const date: Omit<QueryDate, 'text'> = {};
      parts.forEach((part, i) => {
        if (numbers[i] !== undefined) date[part] = numbers[i];
      });
      if (!valid(date)) continue;
      const text = (query.slice(0, match.index) + ' ' + query.slice(match.index + match[0].length)).replace(/\s+/g, ' ').trim();
      return { text, date: { ...date, text: match[0].replace(/\s+/g, ' ').trim() } };
    }
  }
  return { text: query };
}

/** Whether a `YYYY-MM-DD` date is the query's date. */
export function onQueryDate(isoDate: string, date: QueryDate): boolean {
  const [year, month, day] = isoDate.split('-').map(Number);
  return (date.year === undefined || date.year === year) && (date.month === undefined || date.month === month) && (date.day === undefined || date.day === day);
}
