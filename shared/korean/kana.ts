// Japanese kana read as Hangul (docs/search.md, "How a query is read", step 6): loanwords and names
// as Japanese fans type them (`ショーケース` → 쇼케이스, `ハリン` → 하린, `ソア` → 서아). Two readings:
// the loanword one (o as ㅗ, e as ㅔ: 쇼케이스, 다온) and the name one (o as ㅓ, e as ㅐ: 서아, 채이),
// since Japanese has no ㅓ and ㅐ and writes them with o and e. Hiragana reads as katakana. Each
// kana is one table read: the work grows with the word.

// Jamo indexes of a Hangul syllable (U+AC00 + (initial × 21 + vowel) × 28 + final).
const L = { g: 0, n: 2, d: 3, r: 5, m: 6, b: 7, s: 9, o: 11, j: 12, ch: 14, k: 15, t: 16, p: 17, h: 18 } as const;
const V = { a: 0, ae: 1, ya: 2, eo: 4, e: 5, ye: 7, o: 8, wa: 9, yo: 12, u: 13, wo: 14, we: 15, wi: 16, yu: 17, eu: 18, i: 20 } as const;
const FINAL_N = 4;
const FINAL_NG = 21;
const FINAL_S = 19;

type Unit = { l: number; v: number; t?: number; fromO?: boolean; fromE?: boolean };

const ROWS: Record<string, [number, number[]]> = {
  // consonant, and the vowel of each column a i u e o (ㅡ after s, z, ts: 스, 즈, 츠)
  アイウエオ: [L.o, [V.a, V.i, V.u, V.e, V.o]],
  カキクケコ: [L.k, [V.a, V.i, V.u, V.e, V.o]],
  ガギグゲゴ: [L.g, [V.a, V.i, V.eu, V.e, V.o]],
  サシスセソ: [L.s, [V.a, V.i, V.eu, V.e, V.o]],
  ザジズゼゾ: [L.j, [V.a, V.i, V.eu, V.e, V.o]],
  タチツテト: [L.t, [V.a, V.i, V.eu, V.e, V.o]],
  ダヂヅデド: [L.d, [V.a, V.i, V.eu, V.e, V.o]],
  ナニヌネノ: [L.n, [V.a, V.i, V.u, V.e, V.o]],
  ハヒフヘホ: [L.h, [V.a, V.i, V.u, V.e, V.o]],
  バビブベボ: [L.b, [V.a, V.i, V.u, V.e, V.o]],
  パピプペポ: [L.p, [V.a, V.i, V.u, V.e, V.o]],
  マミムメモ: [L.m, [V.a, V.i, V.u, V.e, V.o]],
  ラリルレロ: [L.r, [V.a, V.i, V.u, V.e, V.o]],
};
const KANA = new Map<string, Unit>();
for (const [row, [l, vowels]] of Object.entries(ROWS)) {
  [...row].forEach((kana, i) => KANA.set(kana, { l, v: vowels[i]!, fromE: i === 3, fromO: i === 4 }));
}
// Columns that do not follow their row.
KANA.set('チ', { l: L.ch, v: V.i });
KANA.set('ツ', { l: L.ch, v: V.eu });
KANA.set('フ', { l: L.p, v: V.u });
for (const [kana, v] of [['ヤ', V.ya], ['ユ', V.yu], ['ヨ', V.yo], ['ワ', V.wa], ['ヲ', V.o]] as const) KANA.set(kana, { l: L.o, v });
KANA.set('ヴ', { l: L.b, v: V.u });

/** A small ャュョ after an i-column kana: its glide (キャ → 캬; チャ, ジャ, シャ keep a plain vowel in Korean spelling but シャ is 샤). */
const GLIDES: Record<string, [number, number]> = { ャ: [V.ya, V.a], ュ: [V.yu, V.u], ョ: [V.yo, V.o] };
/** A small ァィゥェォ replaces the vowel (ファ → 파, ティ → 티, ウィ → 위, チェ → 체, シェ → 셰). */
const SMALL_VOWELS: Record<string, number> = { ァ: V.a, ィ: V.i, ゥ: V.u, ェ: V.e, ォ: V.o };

const KATAKANA_WORD = /^[\u30A1-\u30FC]+$/;
const toKatakana = (word: string) => word.replace(/[\u3041-\u3096]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0x60));

/** The units of a katakana word, or undefined when a kana is not one this reads. */
function unitsOf(word: string): Unit[] | undefined {
  const units: Unit[] = [];
  const chars = [...word];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    const last = units[units.length - 1];
    if (ch === 'ン') {
      if (!last) return undefined;
      // ング at the end is one final ㅇ (ティング → 팅); otherwise ン is ㄴ.
      if (chars[i + 1] === 'グ' && i + 2 === chars.length) {
        last.t = FINAL_NG;
        i++;
      } else last.t = FINAL_N;
      continue;
    }
    if (ch === 'ッ') {
      if (last) last.t = FINAL_S;
      continue;
    }
    if (ch === 'ー') {
      // A long e is 에이 in Korean spelling (ケース → 케이스); other long vowels are one syllable.
      if (last?.fromE && last.t === undefined) units.push({ l: L.o, v: V.i });
      continue;
    }
    if (ch in GLIDES && last && last.v === V.i && last.t === undefined) {
      const [glide, plain] = GLIDES[ch]!;
      last.v = last.l === L.ch || last.l === L.j ? plain : glide;
      last.fromO = ch === 'ョ' ? false : last.fromO;
      last.fromE = false;
      continue;
    }
    if (ch in SMALL_VOWELS && last && last.t === undefined) {
      const v = SMALL_VOWELS[ch]!;
      if (last.l === L.o && last.v === V.u) last.v = v === V.i ? V.wi : v === V.e ? V.we : v === V.o ? V.wo : v;
      else last.v = last.l === L.s && v === V.e ? V.ye : v;
      last.fromE = v === V.e;
      last.fromO = v === V.o;
      continue;
    }
    const unit = KANA.get(ch);
    if (!unit) return undefined;
    units.push({ ...unit });
  }
  return units;
}

const syllable = (unit: Unit, v: number) => String.fromCharCode(0xac00 + (unit.l * 21 + v) * 28 + (unit.t ?? 0));

/** Hangul readings of a kana word (the loanword one, then the name one when it differs); none for other words. */
export function kanaToHangul(word: string): string[] {
  const katakana = toKatakana(word);
  if (!KATAKANA_WORD.test(katakana)) return [];
  const units = unitsOf(katakana);
  if (!units || units.length === 0) return [];
  const loanword = units.map((unit) => syllable(unit, unit.v)).join('');
  const name = units.map((unit) => syllable(unit, unit.fromO && unit.v === V.o ? V.eo : unit.fromE && unit.v === V.e ? V.ae : unit.v)).join('');
  return loanword === name ? [loanword] : [loanword, name];
}
