// What administrators teach the search, /api/admin/search (docs/search.md, "Entities and places",
// "Learning from misses"): the top misses, and the aliases and translations that fix them. A new
// alias reaches this replica's next query at once (its cached pages are dropped) and the others'
// within their results cache's lifetime (the entities' version moves with the write).
import { ErrorResponse } from '../../schemas/common.ts';
import { AliasBody, AliasDeleteResponse, AliasesResponse, AliasResponse, MissesQuery, MissesResponse, TranslationBody } from '../../schemas/search-admin.ts';
import { compile } from '../../schemas/validate.ts';
import { addSearchAlias, deleteSearchAlias, searchAliases } from '../../shared/search/entity-aliases.ts';
import { topMisses } from '../../shared/search/search-misses.ts';
import type { Services } from '../../shared/services.ts';
import { reply, type Context } from '../context.ts';
import { intQuery, parseId } from '../params.ts';
import type { Route } from '../router.ts';

const aliasBody = compile(AliasBody);
const translationBody = compile(TranslationBody);

export function searchAdminRoutes(s: Services): Route[] {
  async function misses(ctx: Context) {
    const limit = intQuery(ctx.query, 'limit', 50, 1, 200);
    const offset = intQuery(ctx.query, 'offset', 0, 0, 100_000);
    return reply({ misses: await topMisses(s.db, new Date(s.clock.now()), limit, offset) });
  }

  async function aliases() {
    return reply({ aliases: await searchAliases(s.db) });
  }

  async function addAlias(ctx: Context) {
    const body = aliasBody.parse(await ctx.json());
    const outcome = await addSearchAlias(s.db, { kind: body.kind, targetId: body.id, alias: body.alias, lang: body.lang ?? 'other' });
    s.search.forget?.();
    return reply(outcome, outcome.created ? 201 : 200);
  }

  async function addTranslation(ctx: Context) {
    const body = translationBody.parse(await ctx.json());
    const outcome = await addSearchAlias(s.db, { kind: body.kind, targetId: body.id, alias: body.title, lang: body.lang });
    s.search.forget?.();
    return reply(outcome, outcome.created ? 201 : 200);
  }

  async function removeAlias(ctx: Context) {
    const deleted = await deleteSearchAlias(s.db, parseId(ctx.params.id));
    if (deleted) s.search.forget?.();
    return reply({ deleted });
  }

  const tags = ['search'];
  return [
    { method: 'get', path: '/api/admin/search/misses', handler: misses, auth: 'admin', doc: { summary: 'Searches that find nothing, or only by leaving words out, most missed first', description: 'Counted by normalised query only (no address, no user), the first page of each search, with a daily decay (each miss adds one; the sum halves every day). A repeat answered from the results cache is not counted again. Rows not seen for 14 days are deleted.', tags, query: MissesQuery, responses: { 200: MissesResponse } } },
    { method: 'get', path: '/api/admin/search/aliases', handler: aliases, auth: 'admin', doc: { summary: 'Aliases of venues and members and translations of album and track titles', tags, responses: { 200: AliasesResponse } } },
    { method: 'post', path: '/api/admin/search/aliases', handler: addAlias, auth: 'admin', bodyLimit: 4 * 1024, doc: { summary: 'Add another name of a venue or a member: a query naming it finds what names the venue or member', description: 'Answers 201 with the new alias, 200 with the one already stored; 404 when the venue or member does not exist.', tags, body: AliasBody, responses: { 200: AliasResponse, 201: AliasResponse, 400: ErrorResponse, 404: ErrorResponse } } },
    { method: 'post', path: '/api/admin/search/translations', handler: addTranslation, auth: 'admin', bodyLimit: 4 * 1024, doc: { summary: 'Add a translation of an album or track title: a query in that language finds what names the title', description: 'Answers 201 with the new translation, 200 with the one already stored; 404 when the album or track does not exist.', tags, body: TranslationBody, responses: { 200: AliasResponse, 201: AliasResponse, 400: ErrorResponse, 404: ErrorResponse } } },
    { method: 'delete', path: '/api/admin/search/aliases/:id', handler: removeAlias, auth: 'admin', doc: { summary: 'Delete an alias or a translation', tags, responses: { 200: AliasDeleteResponse } } },
  ];
}
