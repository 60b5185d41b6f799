// Decorations: punctuation, symbols and emoji around or inside a title (`[LUMI-LOG]`, `〈루미랜드〉`,
// `'나침반'`, `💜`, `EP.45`). They carry no meaning for search, and fans type them or not: documents and
// queries are both matched without them, on the same normalised text (`normalizeText`).
import { normalizeText } from './normalize.ts';

// Punctuation and symbols of every script (brackets, quotes, dashes, `#`, `&`, `~`, `|`, emoji and
// their modifiers), and what builds an emoji sequence (ZWJ, the emoji variation selector, a keycap).
const DECORATION_RUN = /[\p{P}\p{S}\u200D\uFE0F\u20E3]+/gu;
// A decoration inside a run of Latin letters and digits (`lumi-log`, `ep.45`, `part.2`, `fromis_9`)
// joins its sides: the document key, which has no decorations and no spaces, holds them together.
const INNER_DECORATION_RUN = /(?<=[\p{Script=Latin}0-9])[\p{P}\p{S}]+(?=[\p{Script=Latin}0-9])/gu;
const SIMPLE = /^[a-z0-9\uAC00-\uD7A3\u3131-\u318E ]*$/;

/** A normalised text without its decorations, spaces removed: the form document keys are matched on. */
export function undecoratedKey(text: string): string {
  const normal = normalizeText(text);
  if (SIMPLE.test(normal)) return normal.replace(/ /g, '');
  return normal.replace(DECORATION_RUN, '').replace(/ /g, '');
}

/**
 * A normalised text without its decorations, words kept apart: a decoration between Latin letters or
 * digits is removed (`lumi-log` → `lumilog`, `ep.45` → `ep45`), any other becomes a space
 * (`〈루미랜드〉` → `루미랜드`, `루미네,나침반` → `루미네 나침반`). The form a query is read in, and the
 * text OpenSearch analyses.
 */
export function undecoratedText(text: string): string {
  const normal = normalizeText(text);
  if (SIMPLE.test(normal)) return normal;
  return normal.replace(INNER_DECORATION_RUN, '').replace(DECORATION_RUN, ' ').replace(/ {2,}/g, ' ').trim();
}
