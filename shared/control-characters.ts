// Control characters in stored text: C0 but tab and line feed, DEL, and C1. They have no visible
// form, and in a title or description they rewrite what a terminal, a log viewer or an export
// shows (ESC sequences, carriage returns that overwrite a line, NEL read as a line break by some
// readers). Text an administrator writes is refused with them (schemas/validate.ts); text the bots
// collect from the platforms is stored without them.

/** One control character of the refused set. */
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;
const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]+/g;

/** The first control character in `text` as a code point name (`U+000B`); null when there is none. */
export function firstControlCharacter(text: string): string | null {
  const found = CONTROL.exec(text);
  return found === null ? null : `U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** `text` without its control characters; a carriage return (alone or before a line feed) becomes a line feed. */
export function withoutControlCharacters(text: string): string {
  return CONTROL.test(text) ? text.replace(/\r\n?/g, '\n').replace(CONTROLS, '') : text;
}
