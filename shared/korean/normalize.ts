// Text normalisation shared by indexing and querying: both sides must agree exactly.
// Only fixed regular expressions live here; user input is never turned into a pattern.

// C0/C1 controls other than whitespace, plus zero-width spaces and the BOM, which users paste
// from chat apps without seeing them. ZWJ (U+200D) stays: emoji sequences need it.
const INVISIBLE = /[\u0000-\u0008\u000E-\u001F\u007F-\u0084\u0086-\u009F\u200B\u2060\uFEFF]/g;
// NEL (U+0085) is a line break that `\s` does not cover.
const WHITESPACE_RUN = /[\s\u0085]+/g;
const LATIN = /\p{Script=Latin}/u;
const LATIN_RUN = /\p{Script=Latin}+/gu;
// Printable ASCII, Hangul syllables and compatibility jamo are already NFC and invisible-free.
const SIMPLE = /^[\u0020-\u007E\uAC00-\uD7A3\u3131-\u318E]*$/;
const ASCII_UPPER = /[A-Z]/;

/**
 * What a person sees: NFC, invisible characters removed, whitespace runs collapsed to one
 * space and trimmed, case kept. The displayed form of a suggestion.
 */
export function tidyText(input: string): string {
  if (typeof input !== 'string' || input.length === 0) return '';
  if (SIMPLE.test(input)) {
    const tidy = input.includes('  ') || input.startsWith(' ') || input.endsWith(' ');
    return tidy ? input.replace(WHITESPACE_RUN, ' ').trim() : input;
  }
  return input.normalize('NFC').replace(INVISIBLE, '').replace(WHITESPACE_RUN, ' ').trim();
}

/** Lowercases the Latin letters of an already tidy text (Hangul and other scripts untouched). */
export function foldLatinCase(tidy: string): string {
  if (SIMPLE.test(tidy)) return ASCII_UPPER.test(tidy) ? tidy.toLowerCase() : tidy;
  return LATIN.test(tidy) ? tidy.replace(LATIN_RUN, (run) => run.toLowerCase()) : tidy;
}

/**
 * NFC, invisible control characters removed, whitespace runs collapsed to one space, trimmed,
 * Latin letters lowercased. Indexing and matching both work on this form.
 */
export function normalizeText(input: string): string {
  return foldLatinCase(tidyText(input));
}

/** The form under which saved searches are counted; same rules as `normalizeText`. */
export function normalizeQuery(input: string): string {
  return normalizeText(input);
}
