// Latin words one edit from a typed one (a letter missing, extra, changed, or two neighbours
// swapped), by symmetric deletions: every word is filed under itself and each spelling of it one
// letter shorter, and a typed word looks up itself and its own deletions. A lookup costs the typed
// word's length in map reads, whatever the number of words filed.

/** Latin words this long or longer are looked up within one edit (shorter ones are abbreviations and too close to one another). */
export const MIN_NEAR_LETTERS = 5;
export const NEAR_WORD = new RegExp(`^[a-z]{${MIN_NEAR_LETTERS},30}$`);

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

export class LatinVocabulary {
  private readonly byDeletion = new Map<string, string[]>();
  private readonly words = new Set<string>();

  /** Words that are not NEAR_WORD (short, other scripts) are left out. */
  constructor(words: Iterable<string>) {
    for (const word of words) {
      if (!NEAR_WORD.test(word) || this.words.has(word)) continue;
      this.words.add(word);
      this.file(word, word);
      for (const deletion of deletionsOf(word)) this.file(deletion, word);
    }
  }

  private file(key: string, word: string) {
    const list = this.byDeletion.get(key);
    if (list === undefined) this.byDeletion.set(key, [word]);
    else if (!list.includes(word)) list.push(word);
  }

  has(word: string): boolean {
    return this.words.has(word);
  }

  get size(): number {
    return this.words.size;
  }

  /** The words one edit from `word` (not itself), added to `into`. */
  near(word: string, into: Set<string> = new Set()): Set<string> {
    if (!NEAR_WORD.test(word)) return into;
    for (const variant of [word, ...deletionsOf(word)]) {
      for (const known of this.byDeletion.get(variant) ?? []) if (known !== word && withinOneEdit(word, known)) into.add(known);
    }
    return into;
  }
}
