// Spellings that look like a blocked query on screen but differ in code points: letters of other
// scripts that look Latin (Cyrillic, Greek, Latin variants), invisible and format characters,
// space-like characters, compatibility forms. Each must be stored, blocked and suggested as the
// blocked query itself (shared/korean/normalize.ts, `normalizeQuery`).

export interface LookAlike {
  /** The query an administrator blocked, as typed. */
  blocked: string;
  /** A spelling of it that looks the same. */
  variant: string;
  why: string;
  /** What a fan types to be offered completions of it. */
  typed: string;
}

const entries: [blocked: string, variant: string, why: string][] = [
  // Cyrillic letters that look Latin.
  ['casino bonus', '\u0441asino bonus', 'Cyrillic с (U+0441)'],
  ['casino bonus', 'c\u0430sino bonus', 'Cyrillic а (U+0430)'],
  ['casino bonus', 'ca\u0455ino bonus', 'Cyrillic ѕ (U+0455)'],
  ['casino bonus', 'cas\u0456no bonus', 'Cyrillic і (U+0456)'],
  ['casino bonus', 'casin\u043E b\u043Enus', 'Cyrillic о (U+043E)'],
  ['casino bonus', '\u0441\u0430\u0455\u0456n\u043E b\u043Enu\u0455', 'every Cyrillic look-alike at once'],
  ['casino bonus', '\u0421ASINO BONUS', 'capital Cyrillic С among capitals'],
  ['casino bonus', 'CASIN\u041E B\u041ENUS', 'capital Cyrillic О'],
  ['casino bonus', 'C\u0410SINO BONUS', 'capital Cyrillic А'],
  ['free coins', 'fr\u0435\u0435 coins', 'Cyrillic е (U+0435)'],
  ['free coins', 'free \u0441oins', 'Cyrillic с in the second word'],
  ['free coins', 'free co\u0456ns', 'Cyrillic і in the second word'],
  ['free coins', 'FR\u0415\u0415 COINS', 'capital Cyrillic Е'],
  ['spam site', '\u0455\u0440am site', 'Cyrillic ѕ and р'],
  ['spam site', 'spam sit\u0435', 'a final Cyrillic е'],
  ['spam site', 'sp\u0430m s\u0456te', 'Cyrillic а and і'],
  ['spam site', 'SPAM SI\u0422E', 'capital Cyrillic Т'],
  ['leaked photos', 'l\u0435aked ph\u043Etos', 'Cyrillic е and о'],
  ['leaked photos', 'leaked \u0440hotos', 'Cyrillic р'],
  ['leaked photos', 'LEA\u041AED PHOTOS', 'capital Cyrillic К'],
  ['leaked photos', 'leaked p\u04BBotos', 'Cyrillic һ (U+04BB)'],
  ['scam link', 's\u0441am link', 'Cyrillic с inside'],
  ['scam link', '\u0455cam l\u0456nk', 'Cyrillic ѕ and і'],
  // Greek letters that look Latin.
  ['casino bonus', 'cas\u03B9no bonus', 'Greek ι (U+03B9)'],
  ['casino bonus', 'casin\u03BF b\u03BFnus', 'Greek ο (U+03BF)'],
  ['casino bonus', 'c\u03B1sino bonus', 'Greek α (U+03B1)'],
  ['free coins', 'free c\u03BF\u03B9ns', 'Greek ο and ι'],
  ['leaked photos', 'leaked \u03C1hotos', 'Greek ρ (U+03C1)'],
  ['spam site', 'SPAM S\u0399TE', 'capital Greek Ι'],
  // Latin letters of other shapes.
  ['casino bonus', 'cas\u0131no bonus', 'dotless ı (U+0131)'],
  ['casino bonus', 'c\u0251sino bonus', 'Latin alpha ɑ (U+0251)'],
  ['free coins', '\uFF46\uFF52\uFF45\uFF45 \uFF43\uFF4F\uFF49\uFF4E\uFF53', 'full-width Latin'],
  ['spam site', '\u{1D42C}\u{1D429}\u{1D41A}\u{1D426} site', 'mathematical bold letters'],
  ['leaked photos', '\u24DBeaked photos', 'a circled letter'],
  // Space-like and invisible characters.
  ['casino bonus', 'casino\u2800bonus', 'a blank braille cell (U+2800) for the space'],
  ['루미네 탈퇴 루머', '루미네\u2800탈퇴\u2800루머', 'blank braille cells between Hangul words'],
  ['루미네 탈퇴 루머', '루미\uFFF9네 탈퇴 루머', 'an interlinear annotation anchor (U+FFF9)'],
  ['루미네 탈퇴 루머', '루미네 탈\uFFFA퇴 루머', 'an interlinear annotation separator (U+FFFA)'],
  ['루미네 탈퇴 루머', '루미네 탈퇴 루\uFFFB머', 'an interlinear annotation terminator (U+FFFB)'],
  ['루미네 탈퇴 루머', '루미네\u{13430} 탈퇴 루머', 'an Egyptian hieroglyph format control (U+13430)'],
  ['루미네 탈퇴 루머', '루미네 탈퇴\u{13436} 루머', 'another hieroglyph format control (U+13436)'],
  ['루미네 탈퇴 루머', '루\u3164미네 탈퇴 루머', 'a Hangul filler (U+3164)'],
  ['루미네 탈퇴 루머', '루미네\u200B 탈퇴 루머', 'a zero-width space'],
  ['루미네 탈퇴 루머', '루미네 \u2060탈퇴 루머', 'a word joiner'],
  ['루미네 탈퇴 루머', '\u202E루미네 탈퇴 루머\u202C', 'a right-to-left override'],
  ['루미네 탈퇴 루머', '루미네\u3000탈퇴\u00A0루머', 'an ideographic space and a no-break space'],
  ['루미네 탈퇴 루머', '루미네 탈퇴 루머\u0600', 'an Arabic number sign (U+0600, a format character)'],
  ['별빛다리 열애설', '별빛다리\u2800\u2800열애설', 'two blank braille cells'],
  ['별빛다리 열애설', '별빛\u00AD다리 열애설', 'a soft hyphen'],
  ['별빛다리 열애설', '별빛다리 열애설\uFE0F', 'a variation selector'],
  ['별빛다리 열애설', '별빛\u180E다리 열애설', 'a Mongolian vowel separator'],
  ['scam link', 'SCAM LIN\u041A', 'capital Cyrillic К among capitals'],
  ['scam link', 'scam \u217Cink', 'a small Roman numeral fifty (U+217C)'],
  ['scam link', '\u0405CAM LINK', 'capital Cyrillic Ѕ'],
  ['spam site', 'SPAM \u0405ITE', 'capital Cyrillic Ѕ in the second word'],
  // Both at once.
  ['casino bonus', '\u0441as\u0456no\u2800b\u043Enus', 'Cyrillic letters and a braille blank'],
  ['free coins', 'fr\u0435e\uFFF9 co\u03B9ns', 'a Cyrillic е, a format character and a Greek ι'],
  ['spam site', '\u0455pam\u200B s\u0456te', 'Cyrillic letters and a zero-width space'],
];

export const BLOCKED_LOOK_ALIKES: readonly LookAlike[] = entries.map(([blocked, variant, why]) => ({ blocked, variant, why, typed: [...blocked].slice(0, 4).join('') }));
