// Keyboard-layout slips: Latin letters typed with the keyboard left in English mode while the
// fan meant Hangul on the Korean 2-set (두벌식) layout (`fnalsp` → 루미네, `dkssud` → 안녕).
import { convertQwertyToHangul } from 'es-hangul';

// A Hangul name of 30 keys is about ten syllables; longer Latin runs are not read as Hangul.
const LATIN_WORD = /^[A-Za-z]{2,30}$/;
const SYLLABLE = /[가-힣]/;
// Keys of Hangul syllables in a row: a consonant key first, never more than two vowel keys (ㅘ)
// or three consonant keys (a cluster final and the next initial) together. Checked before the
// conversion, which costs about 0.1 ms a word.
const SYLLABLE_SHAPED = /^[qwertasdfgzxcvQWERTASDFGZXCV](?![a-zA-Z]*[yuiophjklbnmOPYUIHJKLBNM]{3})(?![a-zA-Z]*[qwertasdfgzxcvQWERTASDFGZXCV]{4})/;
const LONE_JAMO = /[ㄱ-ㆎ]/g;

/**
 * The Hangul a Latin word spells on the 2-set layout, or undefined when it does not spell
 * syllables: every key must fall into a syllable, except one half-typed jamo at the end
 * (`in` → ㅑㅜ is no Hangul word, `ep` → 데 is).
 */
export function hangulFromLatinKeys(word: string): string | undefined {
  if (!LATIN_WORD.test(word) || !SYLLABLE_SHAPED.test(word)) return undefined;
  let hangul: string;
  try {
    hangul = convertQwertyToHangul(word);
  } catch {
    // es-hangul throws on some key runs it cannot assemble (`mlz`): no Hangul word.
    return undefined;
  }
  if (!SYLLABLE.test(hangul)) return undefined;
  const lone = hangul.match(LONE_JAMO)?.length ?? 0;
  if (lone > 1 || (lone === 1 && !/[ㄱ-ㆎ]$/.test(hangul))) return undefined;
  return hangul;
}

/**
 * The query with each whitespace-separated Latin word that spells Hangul replaced by it; undefined
 * when no word does. Works on the raw query: the shifted keys (Q → ㅃ, T → ㅆ, O → ㅒ) need the case.
 */
export function convertLayoutSlips(query: string): string | undefined {
  let changed = false;
  const words = query.split(/\s+/).map((word) => {
    const hangul = hangulFromLatinKeys(word);
    if (hangul === undefined) return word;
    changed = true;
    return hangul;
  });
  return changed ? words.join(' ').trim() : undefined;
}
