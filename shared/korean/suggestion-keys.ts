// The keys a completion candidate is found by (shared/korean/suggestion-index.ts): the jamo and
// choseong keys of its whole text and of each later word start (`computeKeys`), and the character
// bigrams of a text or a query that the index's inverted lists are keyed by.
import { CharClass, charClassOf, choseongCodeOf, hangulJamoOfCode } from './jamo.ts';
import type { KoreanAnalyzer } from './analyzer.ts';

const MAX_WORD_STARTS = 24;
const MAX_QUERY_BIGRAMS = 24;

export interface CandidateKeys {
  jamo: string;
  /** Undefined when the text does not start with Hangul: no choseong query can match it. */
  choseong: string | undefined;
  wordJamo: string[];
  wordChoseong: string[];
}

/** Only keys starting with Hangul go into the choseong tables: a choseong query is all jamo. */
function startsWithHangul(text: string, offset: number): boolean {
  const code = text.charCodeAt(offset);
  return (code >= 0xac00 && code <= 0xd7a3) || (code >= 0x3131 && code <= 0x318e);
}

function unitsToString(units: Uint16Array, length: number): string {
  let text = '';
  // Chunked: `apply` has an argument limit.
  for (let start = 0; start < length; start += 8192) {
    const chunk = units.subarray(start, Math.min(length, start + 8192));
    text += String.fromCharCode.apply(null, chunk as unknown as number[]);
  }
  return text;
}

// Scratch space for computeKeys (offsets of every code unit, the key code units), reused.
let jamoOffsets = new Int32Array(256);
let choseongOffsets = new Int32Array(256);
let jamoUnits = new Uint16Array(1024);
let choseongUnits = new Uint16Array(256);

/** Calls `visit` with the two code points of every bigram of a text without spaces. */
export function forEachBigram(compact: string, visit: (first: number, second: number) => void): void {
  let previous = -1;
  for (let i = 0; i < compact.length; ) {
    const code = compact.codePointAt(i)!;
    if (previous >= 0) visit(previous, code);
    previous = code;
    i += code > 0xffff ? 2 : 1;
  }
}

/** Distinct bigrams of the query; a long query is sampled evenly. */
export function queryBigrams(compactQuery: string): string[] {
  const chars = Array.from(compactQuery);
  const seen = new Set<string>();
  for (let i = 0; i + 1 < chars.length; i++) seen.add(chars[i]! + chars[i + 1]!);
  const distinct = [...seen];
  if (distinct.length <= MAX_QUERY_BIGRAMS) return distinct;
  const step = distinct.length / MAX_QUERY_BIGRAMS;
  return Array.from({ length: MAX_QUERY_BIGRAMS }, (_, i) => distinct[Math.floor(i * step)]!);
}

/** Whole-text keys and the keys from each later word start. */
export function computeKeys(normalized: string, analyzer: KoreanAnalyzer | undefined): CandidateKeys {
  const length = normalized.length;
  // A code unit disassembles into at most 5 jamo (뛁 → ㄸㅜㅣㄹㄱ).
  if (jamoOffsets.length < length + 1) {
    jamoOffsets = new Int32Array((length + 1) * 2);
    choseongOffsets = new Int32Array((length + 1) * 2);
  }
  if (jamoUnits.length < length * 5) jamoUnits = new Uint16Array(length * 10);
  if (choseongUnits.length < length) choseongUnits = new Uint16Array(length * 2);
  const starts: number[] = [];
  let jamoLength = 0;
  let choseongLength = 0;
  let previousClass: CharClass = CharClass.Separator;
  let lastWordClass: CharClass = CharClass.Separator;
  let spaceSinceWord = false;
  for (let i = 0; i < length; ) {
    const code = normalized.charCodeAt(i);
    if (code === 0x20) {
      previousClass = CharClass.Separator;
      spaceSinceWord = true;
      i++;
      continue;
    }
    const width = code >= 0xd800 && code <= 0xdbff && i + 1 < length ? 2 : 1;
    const charClass =
      code >= 0xac00 && code <= 0xd7a3 ? CharClass.Hangul : charClassOf(width === 2 ? normalized.codePointAt(i)! : code);
    if (charClass !== CharClass.Separator) {
      // A word starts after a space or punctuation and where the script changes
      // (fromis9콘서트), but not at punctuation inside a Latin/digit run (2024.05.12, fromis_9).
      const afterSeparator =
        previousClass === CharClass.Separator &&
        (spaceSinceWord || !(lastWordClass === CharClass.LetterOrDigit && charClass === CharClass.LetterOrDigit));
      const scriptChange = previousClass !== CharClass.Separator && previousClass !== charClass;
      if (i > 0 && (afterSeparator || scriptChange)) starts.push(i);
      lastWordClass = charClass;
      spaceSinceWord = false;
    }
    previousClass = charClass;
    jamoOffsets[i] = jamoLength;
    choseongOffsets[i] = choseongLength;
    const jamo = hangulJamoOfCode(code);
    if (jamo !== undefined) {
      for (let j = 0; j < jamo.length; j++) jamoUnits[jamoLength++] = jamo.charCodeAt(j);
      choseongUnits[choseongLength++] = choseongCodeOf(code);
    } else {
      for (let j = i; j < i + width; j++) {
        jamoUnits[jamoLength++] = normalized.charCodeAt(j);
        choseongUnits[choseongLength++] = normalized.charCodeAt(j);
      }
    }
    i += width;
  }
  const jamo = unitsToString(jamoUnits, jamoLength);
  const choseong = unitsToString(choseongUnits, choseongLength);
  if (analyzer) {
    for (const token of analyzer.segment(normalized)) {
      if (token.start > 0 && !starts.includes(token.start)) starts.push(token.start);
    }
    starts.sort((a, b) => a - b);
  }
  const wordJamo: string[] = [];
  const wordChoseong: string[] = [];
  for (let s = 0; s < starts.length && s < MAX_WORD_STARTS; s++) {
    const start = starts[s]!;
    const offset = jamoOffsets[start]!;
    if (offset <= 0) continue;
    const jamoKey = jamo.slice(offset);
    if (wordJamo.includes(jamoKey)) continue;
    wordJamo.push(jamoKey);
    const choseongOffset = choseongOffsets[start]!;
    if (startsWithHangul(choseong, choseongOffset)) wordChoseong.push(choseong.slice(choseongOffset));
  }
  return { jamo, choseong: startsWithHangul(choseong, 0) ? choseong : undefined, wordJamo, wordChoseong };
}
