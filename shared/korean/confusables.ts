// The confusable skeleton of Unicode Technical Standard #39, section 4: NFD, each code point
// replaced by the prototype it is read as (confusables-data.ts), NFD again. Two strings with the same
// skeleton look the same on screen (`ѕрам` in Cyrillic and `spam` in Latin). Used for the stored
// query strings (normalize.ts, `normalizeQuery`), never for what search indexes, and kept readable:
// the result is recomposed (NFC), so Hangul syllables come back whole and a stored query still shows.
import { CONFUSABLE_ROWS } from './confusables-data.ts';

let table: Map<number, string> | undefined;

/** Source code point → prototype, parsed once, on the first text that needs it. */
function prototypes(): Map<number, string> {
  if (table) return table;
  table = new Map();
  for (const row of CONFUSABLE_ROWS) {
    for (const entry of row.split(',')) {
      const [source, prototype] = entry.split('>') as [string, string];
      table.set(Number.parseInt(source, 16), String.fromCodePoint(...prototype.split(' ').map((hex) => Number.parseInt(hex, 16))));
    }
  }
  return table;
}

/** Rounds of mapping at most: a prototype may hold a code point that is itself mapped (U+048A). */
const MAX_ROUNDS = 4;
const LATIN_CAPITALS = /^[A-Z]+$/;

/**
 * One code point as it reads in a text whose Latin letters are folded to lower case: a capital
 * that reads as Latin capitals (Cyrillic Т, Greek Β) is those letters in lower case; any other
 * capital is read as its own small letter (Cyrillic І as і, so as `i`, like Latin I folded).
 */
function prototypeOf(map: Map<number, string>, char: string): string {
  const lower = char.toLowerCase();
  if (lower === char) return map.get(char.codePointAt(0)!) ?? char;
  const capital = map.get(char.codePointAt(0)!);
  if (capital !== undefined && LATIN_CAPITALS.test(capital)) return capital.toLowerCase();
  let out = '';
  for (const small of lower) out += map.get(small.codePointAt(0)!) ?? small;
  return out;
}

/**
 * The UTS #39 skeleton of `text`, read with Latin case folded (`prototypeOf`), recomposed to NFC.
 * The table's prototypes are not all fixed points once recomposed, so the mapping repeats until
 * nothing changes: the skeleton of a skeleton is itself, as a stored form must be.
 */
export function confusableSkeleton(text: string): string {
  const map = prototypes();
  let current = text.normalize('NFD');
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let out = '';
    for (const char of current) out += prototypeOf(map, char);
    out = out.normalize('NFD');
    if (out === current) break;
    current = out;
  }
  return current.normalize('NFC');
}
