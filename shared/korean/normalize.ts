import { confusableSkeleton } from './confusables.ts';

// Text normalisation shared by indexing, querying and every stored or compared query string
// (saved searches, popular searches, the block list, the suggestion index): both sides must agree
// exactly, or a string that looks the same on screen counts as a different one. Only fixed regular
// expressions live here; user input is never turned into a pattern.

// Code points that draw nothing or only steer direction: Unicode's default-ignorable set (soft
// hyphen, zero-width non-joiners and spaces, variation selectors, the Hangul fillers U+115F, U+1160,
// U+3164 and U+FFA0, tags), the bidi controls, every other format character (U+FFF9-FFFB
// interlinear annotations, the Egyptian hieroglyph format controls from U+13430, the Arabic number
// signs: not default-ignorable, yet in a query each draws nothing or only decorates), and C0/C1
// controls other than whitespace. A blocked query must not come back with one of them inside.
// ZWJ (U+200D) is handled apart: between two emoji it draws one picture (a family, a flag).
const INVISIBLE = /(?!\u200D)[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}\p{Cf}\u0000-\u0008\u000E-\u001F\u007F-\u0084\u0086-\u009F]/gu;
const STRAY_JOINER = /(?<!\p{Extended_Pictographic}\p{Emoji_Modifier}?)\u200D|\u200D(?!\p{Extended_Pictographic})/gu;
// NEL (U+0085) is a line break that `\s` does not cover; the blank braille cell (U+2800) draws
// nothing and is typed as a space.
const WHITESPACE_RUN = /[\s\u0085\u2800]+/g;
const LATIN = /\p{Script=Latin}/u;
const LATIN_RUN = /\p{Script=Latin}+/gu;
// Printable ASCII, Hangul syllables and compatibility jamo are already NFKC and invisible-free,
// but for the Hangul filler (U+3164), which sits among the jamo and draws nothing.
const SIMPLE = /^[\u0020-\u007E\uAC00-\uD7A3\u3131-\u3163\u3165-\u318E]*$/;
const ASCII_UPPER = /[A-Z]/;
// NFKC turns compatibility jamo (what a keyboard types: ㅎㄱㅇㄷ) into conjoining jamo, which no
// one types and which would no longer match; so runs of them are kept out of NFKC.
const COMPAT_JAMO_RUN = /[\u3131-\u318E]+/g;
// Lone conjoining jamo (and half-width jamo, which NFKC turns into them) are written as the
// compatibility jamo a keyboard types.
const CONJOINING_JAMO = /[\u1100-\u11FF]/g;
const CHOSEONG_COMPAT = 'ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ';
const JONGSEONG_COMPAT = 'ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ';

function compatibilityJamo(char: string): string {
  const code = char.charCodeAt(0);
  if (code >= 0x1100 && code <= 0x1112) return CHOSEONG_COMPAT[code - 0x1100]!;
  if (code >= 0x1161 && code <= 0x1175) return String.fromCharCode(0x314f + code - 0x1161);
  if (code >= 0x11a8 && code <= 0x11c2) return JONGSEONG_COMPAT[code - 0x11a8]!;
  return char; // archaic jamo: left as they are
}

/** NFKC (full-width letters and digits, ligatures, circled numbers to their plain forms) but for compatibility jamo. */
function compatibilityFolded(input: string): string {
  let out = '';
  let from = 0;
  for (const match of input.matchAll(COMPAT_JAMO_RUN)) {
    out += input.slice(from, match.index).normalize('NFKC') + match[0];
    from = match.index + match[0].length;
  }
  out += input.slice(from).normalize('NFKC');
  return out.replace(CONJOINING_JAMO, compatibilityJamo);
}

/**
 * What a person sees, in one canonical form: NFKC (compatibility jamo kept), default-ignorable,
 * bidi and control characters removed, whitespace runs collapsed to one space and trimmed, case
 * kept. The displayed form of a suggestion.
 */
export function tidyText(input: string): string {
  if (typeof input !== 'string' || input.length === 0) return '';
  if (SIMPLE.test(input)) {
    const tidy = input.includes('  ') || input.startsWith(' ') || input.endsWith(' ');
    return tidy ? input.replace(WHITESPACE_RUN, ' ').trim() : input;
  }
  const visible = (text: string) => text.replace(INVISIBLE, '').replace(STRAY_JOINER, '');
  return visible(compatibilityFolded(visible(input))).replace(WHITESPACE_RUN, ' ').trim();
}

/** Lowercases the Latin letters of an already tidy text (Hangul and other scripts untouched). */
export function foldLatinCase(tidy: string): string {
  if (SIMPLE.test(tidy)) return ASCII_UPPER.test(tidy) ? tidy.toLowerCase() : tidy;
  return LATIN.test(tidy) ? tidy.replace(LATIN_RUN, (run) => run.toLowerCase()) : tidy;
}

/**
 * `tidyText` with Latin letters lowercased. Indexing and matching both work on this form, and so
 * does every stored query string.
 */
export function normalizeText(input: string): string {
  return foldLatinCase(tidyText(input));
}

/**
 * The form under which saved, popular and blocked searches are stored and compared: the normal form
 * (`normalizeText`), then, for text that is not all ASCII and Hangul, its confusable skeleton
 * (confusables.ts) in lower case, so a query blocks every string that looks the same on screen
 * (`ѕраm` with Cyrillic letters is `spam`). Rows stored under an older form are rewritten by a
 * migration step (shared/db/data-migrations.ts) whenever these rules change.
 */
export function normalizeQuery(input: string): string {
  const normal = normalizeText(input);
  if (SIMPLE.test(normal)) return normal;
  // Lower case, every script: a capital Cyrillic І reads as `l` but a small і as `i`, and Latin `I`
  // is already `i` in the normal form.
  return normalizeText(confusableSkeleton(normal));
}
