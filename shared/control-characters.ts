// Control characters in stored text: C0 but tab and line feed, DEL, C1, the line and paragraph
// separators (U+2028, U+2029) and the bidi controls (embeddings, overrides, isolates, marks). They
// have no visible form of their own, and in a title or description they rewrite what a terminal, a
// log viewer, an export or a calendar shows (ESC sequences, carriage returns that overwrite a line,
// NEL and U+2028 read as line breaks by some readers and not others, U+202E turning the rest of a
// line around). Text an administrator writes is refused with them (schemas/validate.ts); text the
// bots collect from the platforms is stored without them.

/** One control character of the refused set. */
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029\p{Bidi_Control}]/u;
const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\p{Bidi_Control}]+/gu;

/** The first control character in `text` as a code point name (`U+000B`); null when there is none. */
export function firstControlCharacter(text: string): string | null {
  const found = CONTROL.exec(text);
  return found === null ? null : `U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * `text` without its control characters; a carriage return (alone or before a line feed) and the
 * line and paragraph separators become a line feed.
 */
export function withoutControlCharacters(text: string): string {
  return CONTROL.test(text) ? text.replace(/\r\n?|[\u2028\u2029]/g, '\n').replace(CONTROLS, '') : text;
}
