// Queries no fan types but an attacker sends: every shape the search and suggestion routes accept
// (up to 200 characters for search, any length for suggestions, which read the first 100), built
// to find super-linear work: many long words that match nothing, repeated words, jamo and initial
// consonants, surrogate pairs, combining marks, LIKE wildcards, control-free whitespace variants.
import { seededRandom } from '../../shared/db/demo-data.ts';

export interface HostileQuery {
  shape: string;
  text: string;
}

/** The longest search text the API accepts (ScheduleListQuery.search). */
export const SEARCH_MAX = 200;

const fit = (text: string) => [...text].slice(0, SEARCH_MAX).join('').slice(0, SEARCH_MAX);

export function hostileQueries(seed = 0x0bad): HostileQuery[] {
  const random = seededRandom(seed);
  const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  // Syllables of rare initials and vowels: words that appear in no document.
  const syllable = () => String.fromCharCode(0xac00 + between(0, 11_171));
  const word = (syllables: number) => Array.from({ length: syllables }, syllable).join('');
  const words = (count: number, syllables: number) => Array.from({ length: count }, () => word(syllables)).join(' ');
  const choseong = (n: number) => Array.from({ length: n }, () => 'ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎ'[between(0, 13)]).join('');
  const latin = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + between(0, 25))).join('');
  const queries: HostileQuery[] = [];
  const add = (shape: string, text: string) => queries.push({ shape, text: fit(text) });
  for (let i = 0; i < 3; i++) {
    add('8 unseen words of 24 syllables', words(8, 24));
    add('8 unseen words of 2 syllables', words(8, 2));
    add('12 unseen words of 3 syllables', words(12, 3));
    add('40 words of one syllable', words(40, 1));
    add('1 unseen word of 200 syllables', word(200));
    add('unseen word beside common ones', `프로미스나인 ${word(6)} 콘서트 ${word(8)} 대학교 ${word(5)} 축제 ${word(7)}`);
    add('8 words of initials', Array.from({ length: 8 }, () => choseong(between(2, 20))).join(' '));
    add('200 initials', choseong(200));
    add('8 long Latin words', Array.from({ length: 8 }, () => latin(24)).join(' '));
    add('mixed scripts per character', Array.from({ length: 200 }, (_, k) => (k % 3 === 0 ? syllable() : k % 3 === 1 ? latin(1) : choseong(1))).join(''));
  }
  add('one word repeated', Array.from({ length: 66 }, () => '콘서트').join(' '));
  add('common words repeated', Array.from({ length: 25 }, (_, k) => ['대학교', '축제', '콘서트', '팬미팅'][k % 4]).join(' '));
  add('lone jamo', 'ㅏㅑㅓㅕㅗㅛㅜㅠㅡㅣ'.repeat(20));
  add('half-typed syllables', Array.from({ length: 40 }, () => `${syllable()}ㅎ`).join(' '));
  add('surrogate pairs', '🎤🎶💜'.repeat(40));
  add('combining marks', `${'가\u0301\u0302\u0303'.repeat(40)}`);
  add('decomposed Hangul', '\u1100\u1161\u11a8'.repeat(60));
  add('LIKE wildcards and quotes', `%_\\'"${'%'.repeat(50)} _ \\\\ ' " ; -- /*`.repeat(3));
  add('whitespace variants', `콘서트\u00a0대학교\u3000축제\t팬미팅\u2003${word(4)}`);
  add('zero-width characters', `콘\u200b서\u200c트\u200d${'\ufeff'.repeat(20)}${word(10)}`);
  add('right-to-left text', '\u202eشسيبلاتنم'.repeat(15));
  add('digits', '2026 05 17 '.repeat(18));
  add('punctuation only', '!@#$^&*()[]{}<>?/|~`'.repeat(10));
  return queries;
}
