// What administrators teach the search (docs/search.md, "Entities and places", "Learning from
// misses"): aliases of venues and members, translations of album and track titles, and the top misses.
import { Type, type Static } from '@sinclair/typebox';
import { IdParam } from './common.ts';

const Lang = Type.Union([Type.Literal('ko'), Type.Literal('en'), Type.Literal('ja'), Type.Literal('other')], { description: 'The script or language of the name' });

export const SearchAlias = Type.Object(
  {
    id: Type.Integer(),
    kind: Type.Union([Type.Literal('venue'), Type.Literal('member'), Type.Literal('album'), Type.Literal('track')]),
    targetId: Type.Integer(),
    alias: Type.String(),
    lang: Lang,
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'SearchAlias' },
);

export const AliasBody = Type.Object(
  {
    kind: Type.Union([Type.Literal('venue'), Type.Literal('member')]),
    id: IdParam,
    alias: Type.String({ minLength: 1, maxLength: 100 }),
    lang: Type.Optional(Lang),
  },
  { additionalProperties: false, $id: 'SearchAliasBody' },
);
export type AliasBody = Static<typeof AliasBody>;

export const TranslationBody = Type.Object(
  {
    kind: Type.Union([Type.Literal('album'), Type.Literal('track')]),
    id: IdParam,
    title: Type.String({ minLength: 1, maxLength: 100 }),
    lang: Lang,
  },
  { additionalProperties: false, $id: 'SearchTranslationBody' },
);
export type TranslationBody = Static<typeof TranslationBody>;

export const AliasesResponse = Type.Object({ aliases: Type.Array(SearchAlias) });
export const AliasResponse = Type.Object({ alias: SearchAlias, created: Type.Boolean() });
export const AliasDeleteResponse = Type.Object({ deleted: Type.Boolean() });

export const MissesQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000, default: 0 })),
});

export const SearchMiss = Type.Object(
  {
    query: Type.String({ description: 'The query as normalised (NFKC, invisible code points removed, whitespace collapsed, Latin case folded)' }),
    score: Type.Number({ description: 'Misses counted with a daily decay: each adds one, the sum halves every day' }),
    count: Type.Integer({ description: 'Misses counted, not decayed' }),
    partial: Type.Boolean({ description: 'The last one found schedules only by leaving words out (else it found nothing)' }),
    firstSeen: Type.String({ format: 'date-time' }),
    lastSeen: Type.String({ format: 'date-time' }),
  },
  { $id: 'SearchMiss' },
);
export const MissesResponse = Type.Object({ misses: Type.Array(SearchMiss) });
