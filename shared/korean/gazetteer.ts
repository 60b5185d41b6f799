// Places at every level (docs/search.md, "Entities and places"): the shipped gazetteer
// (gazetteer-data.ts) read once into lexicon groups (every name of a place reads as the form titles
// use: `LA`, `los angeles`, `ロサンゼルス` → 로스앤젤레스) and a map from each name to the place and the
// places it lies in (로스앤젤레스 → 미국), which a search document's places are tagged with
// (`placesNamed`): a title naming 도쿄 is found by 일본 and by `japan`. Every lookup is one map read
// a word: the work grows with the text, never with the number of places or documents.
import { undecoratedText } from './decorations.ts';
import { GAZETTEER } from './gazetteer-data.ts';
import type { LexiconGroup } from './lexicon.ts';

export type PlaceKind = 'country' | 'region' | 'district' | 'city';

export interface Place {
  kind: PlaceKind;
  /** The form titles and addresses use (the first Korean name). */
  name: string;
  /** Every name, normalised without decorations, words apart: Korean, English, Japanese. */
  names: string[];
  /** The Korean name of the place it lies in. */
  parent?: string;
}

/** Parses the gazetteer's text; a bad line is a programming error in the shipped data. */
export function parseGazetteer(text: string): Place[] {
  const places: Place[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const fields = line.split(';').map((field) => field.trim());
    if (fields.length !== 5) throw new Error(`gazetteer line needs five fields: ${line}`);
    const [kind, korean, english, japanese, parent] = fields as [PlaceKind, string, string, string, string];
    const names = [korean, english, japanese].flatMap((field) => field.split('|')).map((name) => undecoratedText(name)).filter(Boolean);
    places.push({ kind, name: names[0]!, names: [...new Set(names)], ...(parent ? { parent: undecoratedText(parent) } : {}) });
  }
  return places;
}

export const PLACES = parseGazetteer(GAZETTEER);

/** One lexicon group a place: its title form first, then its other names (a name of three words at most). */
export const GAZETTEER_GROUPS: LexiconGroup[] = PLACES.map((place) => ({ terms: place.names.map((name) => name.split(' ')).filter((words) => words.length <= 3), canonical: true }));

const keyOf = (name: string) => name.replace(/ /g, '');
const byName = new Map<string, Place>();
for (const place of PLACES) for (const name of place.names) if (!byName.has(keyOf(name))) byName.set(keyOf(name), place);
const byTitleForm = new Map(PLACES.map((place) => [place.name, place]));

/** The place and those it lies in, as their title forms (서울 → 서울, 대한민국). */
function withParents(place: Place): string[] {
  const chain = [place.name];
  for (let at = place.parent ? byTitleForm.get(place.parent) : undefined; at && chain.length < 5; at = at.parent ? byTitleForm.get(at.parent) : undefined) chain.push(at.name);
  return chain;
}

/** Particles a place name takes in a title (`도쿄에서`, `서울의`): looked up without them too. */
const PARTICLES = ['에서', '으로', '의', '에', '로'];
/** Latin names this short (`la`, `us`, `uk`) name a place in a title only when written in capitals there (`in LA`). */
const SHORT_LATIN = /^[a-z]{1,3}$/;
/** Words of a place name looked at together (`los angeles`, `new york`). */
const MAX_NAME_WORDS = 3;

/**
 * The places a text names (a title, an address), each with the places it lies in, as their title
 * forms; `asTyped` is the text before normalisation, which says whether a short Latin name was
 * written in capitals. One map read per word and span of up to three words.
 */
export function placesNamed(text: string, asTyped = text): string[] {
  const words = undecoratedText(text).split(' ').filter(Boolean);
  const capitals = new Set(asTyped.split(/[^A-Za-z]+/).filter((word) => word.length > 0 && word === word.toUpperCase()).map((word) => word.toLowerCase()));
  const found = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    for (let span = Math.min(MAX_NAME_WORDS, words.length - i); span >= 1; span--) {
      const typed = words.slice(i, i + span).join('');
      if (span === 1 && SHORT_LATIN.test(typed) && !capitals.has(typed)) continue;
      const candidates = [typed, ...(span === 1 && /[가-힣]$/.test(typed) ? PARTICLES.filter((particle) => typed.endsWith(particle) && typed.length - particle.length >= 2).map((particle) => typed.slice(0, -particle.length)) : [])];
      const place = candidates.map((candidate) => byName.get(candidate)).find(Boolean);
      if (!place) continue;
      for (const name of withParents(place)) found.add(name);
      i += span - 1;
      break;
    }
  }
  return [...found];
}
