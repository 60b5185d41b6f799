// The aliases and translations administrators add (`search_aliases`): read by the entities the
// query-understanding step knows (entities.ts); each write moves the entities' version (a trigger).
import type { Queryable } from '../db/database.ts';
import { notFound } from '../errors.ts';
import type { EntityKind } from './entities.ts';

export type AliasLang = 'ko' | 'en' | 'ja' | 'other';

export interface SearchAliasRecord {
  id: number;
  kind: EntityKind;
  targetId: number;
  alias: string;
  lang: AliasLang;
  createdAt: string;
}

const TARGET_TABLE: Record<EntityKind, string> = { venue: 'venues', member: 'members', album: 'albums', track: 'tracks' };
const NOT_FOUND: Record<EntityKind, string> = {
  venue: '장소를 찾을 수 없습니다.',
  member: '멤버를 찾을 수 없습니다.',
  album: '앨범을 찾을 수 없습니다.',
  track: '수록곡을 찾을 수 없습니다.',
};

interface AliasRow {
  id: number;
  kind: EntityKind;
  target_id: number;
  alias: string;
  lang: AliasLang;
  created_at: Date;
}

const toRecord = (row: AliasRow): SearchAliasRecord => ({ id: row.id, kind: row.kind, targetId: row.target_id, alias: row.alias, lang: row.lang, createdAt: row.created_at.toISOString() });

/** Adds an alias of a stored record; the one already stored when it is there; 404 when the record is not. */
export async function addSearchAlias(db: Queryable, alias: { kind: EntityKind; targetId: number; alias: string; lang: AliasLang }): Promise<{ alias: SearchAliasRecord; created: boolean }> {
  const text = alias.alias.normalize('NFC').replace(/\s+/g, ' ').trim();
  return db.tx(async (tx) => {
    // The table name comes from the fixed map above, never from the request.
    const exists = await tx.oneOrNone(`SELECT 1 FROM ${TARGET_TABLE[alias.kind]} WHERE id = $1 FOR KEY SHARE`, [alias.targetId]);
    if (!exists) throw notFound(NOT_FOUND[alias.kind]);
    const inserted = await tx.oneOrNone<AliasRow>(
      'INSERT INTO search_aliases (kind, target_id, alias, lang) VALUES ($1, $2, $3, $4) ON CONFLICT (kind, target_id, alias) DO NOTHING RETURNING *',
      [alias.kind, alias.targetId, text, alias.lang],
    );
    if (inserted) return { alias: toRecord(inserted), created: true };
    const stored = await tx.one<AliasRow>('SELECT * FROM search_aliases WHERE kind = $1 AND target_id = $2 AND alias = $3', [alias.kind, alias.targetId, text]);
    return { alias: toRecord(stored), created: false };
  });
}

export async function searchAliases(db: Queryable): Promise<SearchAliasRecord[]> {
  return (await db.any<AliasRow>('SELECT * FROM search_aliases ORDER BY kind, target_id, id')).map(toRecord);
}

export async function deleteSearchAlias(db: Queryable, id: number): Promise<boolean> {
  return (await db.result('DELETE FROM search_aliases WHERE id = $1', [id])).rowCount > 0;
}
