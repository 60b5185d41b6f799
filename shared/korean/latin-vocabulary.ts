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

/** Words a vocabulary files at most: past it, new words wait for the next build. */
export const MAX_VOCABULARY_WORDS = 20_000;

/**
 * The Latin words of five to thirty letters in a normalised text (Latin case folded); letters
 * joined by a hyphen, dot, apostrophe or underscore are one word, as in the documents' keys
 * (`lumi-log` is lumilog).
 */
export function latinWordsOf(normalized: string): string[] {
  return normalized.replace(/([a-z0-9])[-_.'’]+(?=[a-z0-9])/g, '$1').match(/(?<![a-z])[a-z]{5,30}(?![a-z])/g) ?? [];
}

/** Latin words filed by their one-letter deletions, each held while some text holds it. */
export class LatinVocabulary {
  private readonly byDeletion = new Map<string, string[]>();
  /** Each word and how many texts added it. */
  private readonly holders = new Map<string, number>();

  /** Words that are not NEAR_WORD (short, other scripts) are left out. */
  constructor(words: Iterable<string> = []) {
    for (const word of words) this.add(word);
  }

  /** Holds a word once more (filed the first time, while under MAX_VOCABULARY_WORDS). */
  add(word: string): void {
    const held = this.holders.get(word);
    if (held !== undefined) {
      this.holders.set(word, held + 1);
      return;
    }
    if (!NEAR_WORD.test(word) || this.holders.size >= MAX_VOCABULARY_WORDS) return;
    this.holders.set(word, 1);
    this.file(word, word);
    for (const deletion of deletionsOf(word)) this.file(deletion, word);
  }

  /** Holds a word once less: unfiled when no text holds it any more. */
  remove(word: string): void {
    const held = this.holders.get(word);
    if (held === undefined) return;
    if (held > 1) {
      this.holders.set(word, held - 1);
      return;
    }
    this.holders.delete(word);
    for (const key of [word, ...deletionsOf(word)]) {
      const list = this.byDeletion.get(key);
      if (!list) continue;
      const rest = list.filter((known) => known !== word);
      if (rest.length > 0) this.byDeletion.set(key, rest);
      else this.byDeletion.delete(key);
    }
  }

  private file(key: string, word: string) {
    const list = this.byDeletion.get(key);
    if (list === undefined) this.byDeletion.set(key, [word]);
    else if (!list.includes(word)) list.push(word);
  }

  has(word: string): boolean {
    return this.holders.has(word);
  }

  get size(): number {
    return this.holders.size;
  }

  /** The words one edit from `word` (not itself), added to `into`. */
  near(word: string, into: Set<string> = new Set()): Set<string> {
    if (!NEAR_WORD.test(word)) return into;
    for (const variant of [word, ...deletionsOf(word)]) {
      for (const known of this.byDeletion.get(variant) ?? []) if (known !== word && withinOneEdit(word, known)) into.add(known);
    }
    return into;
  }

  /** What a typed word is among these words: itself alone when filed, else the words one edit from it. */
  lookup(word: string): string[] {
    return this.has(word) ? [word] : [...this.near(word)];
  }
}
