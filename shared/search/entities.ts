// What the query-understanding step knows from the stored records (docs/search.md, "Entities and
// places"): venues, members, albums and tracks, with the aliases and translations administrators
// added (`search_aliases`), as lexicon groups whose first term is the form documents hold (a venue's
// name, a member's Korean name, a title as stored). A query word naming one by another name reads as
// that form: `main dancer` → the member whose position says 메인댄서, `seoa's` → 강서아, `Compass` →
// 나침반 once a translation says so. Read in one round trip, and again only after a write to one of
// those tables (`search_entities_version`, moved by triggers); a lookup is one map read a term.
import type { Queryable } from '../db/database.ts';
import { undecoratedText } from '../korean/decorations.ts';
import { MAX_LEXICON_TERM_WORDS, type LexiconGroup } from '../korean/lexicon.ts';

export type EntityKind = 'venue' | 'member' | 'album' | 'track';

/** Positions as groups write them, with the English and Japanese a fan types. */
const POSITIONS: Record<string, string[]> = {
  리더: ['leader', 'リーダー'],
  메인보컬: ['main vocal', 'main vocalist', 'メインボーカル'],
  리드보컬: ['lead vocal', 'lead vocalist', 'リードボーカル'],
  서브보컬: ['sub vocal', 'sub vocalist', 'サブボーカル'],
  메인댄서: ['main dancer', 'メインダンサー'],
  리드댄서: ['lead dancer', 'リードダンサー'],
  메인래퍼: ['main rapper', 'メインラッパー'],
  리드래퍼: ['lead rapper', 'リードラッパー'],
  서브래퍼: ['sub rapper', 'サブラッパー'],
  비주얼: ['visual', 'ビジュアル'],
  센터: ['center', 'centre', 'センター'],
  막내: ['maknae', 'youngest', 'the youngest', '末っ子'],
};
/** Said of the oldest current member; the youngest is 막내 (above), from the birth dates too. */
const OLDEST = ['맏언니', '맏내', '큰언니', 'oldest', 'the oldest', 'eldest'];
const YOUNGEST = ['막내', ...POSITIONS['막내']!];

interface MemberRow {
  id: number;
  name: string;
  name_en: string | null;
  position: string | null;
  nicknames: string[];
  birth_date: string | null;
  is_former: boolean;
}

interface TitleRow {
  kind: EntityKind;
  id: number;
  name: string;
}

interface AliasRow {
  kind: EntityKind;
  target_id: number;
  alias: string;
}

/** A term as the lexicon keeps it: normalised without decorations, words apart; undefined when too long. */
function termOf(text: string): string[] | undefined {
  const words = undecoratedText(text).split(' ').filter(Boolean);
  return words.length > 0 && words.length <= MAX_LEXICON_TERM_WORDS && words.every((word) => [...word].length <= 40) ? words : undefined;
}

/** The groups of one entity: its stored form first, then its other names; none when it has no other. */
function groupOf(form: string, others: string[]): LexiconGroup | undefined {
  const first = termOf(form);
  if (!first) return undefined;
  const seen = new Set([first.join('')]);
  const terms = [first];
  for (const other of others) {
    const term = termOf(other);
    if (!term || seen.has(term.join(''))) continue;
    seen.add(term.join(''));
    terms.push(term);
  }
  return terms.length > 1 ? { terms } : undefined;
}

/** `나침반 (Inst.)`, `Compass -Japanese ver.-`: the title a version names, without the version. */
export function originalTitle(title: string): string | undefined {
  const base = title.replace(/\s*[(\[（〈<-][^()\[\]（）〈〉<>]*(?:ver\.?|version|inst\.?|remix|edit|mix)[^()\[\]（）〈〉<>]*[)\]）〉>-]?\s*$/iu, '').trim();
  return base !== '' && base !== title.trim() ? base : undefined;
}

/** A member's names: English name, given names in both scripts, nicknames, positions, youngest/oldest. */
function memberNames(member: MemberRow, ages: { youngest?: number; oldest?: number }): string[] {
  const names: string[] = [];
  if (member.name_en) {
    names.push(member.name_en);
    const parts = member.name_en.trim().split(/\s+/);
    // Korean order (`Kang Seoa`): the given name follows the family name; fans write it alone (`seoa's`).
    if (parts.length >= 2) names.push(parts.slice(1).join(' '));
  }
  const hangul = [...member.name];
  if (hangul.length === 3 && /^[가-힣]+$/.test(member.name)) names.push(hangul.slice(1).join(''));
  names.push(...member.nicknames);
  for (const position of (member.position ?? '').split(/[,/·]/).map((part) => part.trim().replace(/\s+/g, '')).filter(Boolean)) {
    names.push(position, ...(POSITIONS[position] ?? []));
  }
  if (ages.youngest === member.id) names.push(...YOUNGEST);
  if (ages.oldest === member.id) names.push(...OLDEST);
  return names;
}

/**
 * The entity groups of the stored records, in one statement: venues, current and former members,
 * albums and tracks, and their aliases. Grows with the catalogue (tens of rows), not with the schedules.
 */
export async function loadEntityGroups(db: Queryable): Promise<LexiconGroup[]> {
  const row = await db.one<{ members: MemberRow[] | null; titles: TitleRow[] | null; aliases: AliasRow[] | null }>(`
    SELECT (SELECT json_agg(json_build_object('id', id, 'name', name, 'name_en', name_en, 'position', position, 'nicknames', nicknames,
                                              'birth_date', to_char(birth_date, 'YYYY-MM-DD'), 'is_former', is_former) ORDER BY id) FROM members) AS members,
           (SELECT json_agg(t) FROM (
              SELECT 'venue' AS kind, id, name FROM venues
              UNION ALL SELECT 'album', id, title FROM albums
              UNION ALL SELECT 'track', id, title FROM tracks) t) AS titles,
           (SELECT json_agg(json_build_object('kind', kind, 'target_id', target_id, 'alias', alias) ORDER BY id) FROM search_aliases) AS aliases`);
  const aliases = new Map<string, string[]>();
  for (const alias of row.aliases ?? []) {
    const key = `${alias.kind}:${alias.target_id}`;
    aliases.set(key, [...(aliases.get(key) ?? []), alias.alias]);
  }
  const groups: LexiconGroup[] = [];
  const current = (row.members ?? []).filter((member) => !member.is_former && member.birth_date);
  const byAge = [...current].sort((a, b) => a.birth_date!.localeCompare(b.birth_date!));
  const ages = current.length >= 2 ? { oldest: byAge[0]!.id, youngest: byAge[byAge.length - 1]!.id } : {};
  for (const member of row.members ?? []) {
    const group = groupOf(member.name, [...memberNames(member, ages), ...(aliases.get(`member:${member.id}`) ?? [])]);
    if (group) groups.push(group);
  }
  for (const title of row.titles ?? []) {
    const others = aliases.get(`${title.kind}:${title.id}`) ?? [];
    const original = title.kind === 'venue' ? undefined : originalTitle(title.name);
    // A version's title (`나침반 (Inst.)`) reads as the title it names, and the other way round is the original's own group.
    const group = groupOf(original ?? title.name, original ? [title.name, ...others] : others);
    if (group) groups.push(group);
  }
  return groups;
}

/** The version the stored entities are at: it moves with every write to the tables `loadEntityGroups` reads. */
export async function entitiesVersion(db: Queryable): Promise<number> {
  const row = await db.oneOrNone<{ version: string }>("SELECT (extract(epoch FROM changed_at) * 1000000)::bigint::text AS version FROM search_entities_version WHERE id = 1");
  return Number(row?.version ?? 0);
}
