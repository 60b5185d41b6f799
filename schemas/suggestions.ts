// Suggestions, popular searches and the user dictionary (decisions.md "Suggestions").
import { Type } from '@sinclair/typebox';

export const MAX_SAVED_QUERY_LENGTH = 100;

export const SuggestionsQuery = Type.Object({
  q: Type.String({ description: 'what was typed; empty or whitespace gives []' }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10 })),
});
export const SuggestionsResponse = Type.Object({ suggestions: Type.Array(Type.String()) });
export const PopularQuery = Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10 })) });
export const PopularResponse = Type.Object({ queries: Type.Array(Type.Object({ query: Type.String(), count: Type.Integer() })) });
export const SaveBody = Type.Object({ query: Type.String({ minLength: 1, maxLength: MAX_SAVED_QUERY_LENGTH }) });
export const DictionaryResponse = Type.Object({ content: Type.String() });
export const DictionaryBody = Type.Object({ content: Type.String({ maxLength: 1_000_000, description: 'one entry a line: word<TAB>tag (NNP, NNG, ...), a synonym line `shorthand => meaning | meaning`, or a lexicon line `title form <=> same word | same word`; # starts a comment' }) });
export const BlockQuery = Type.Object({ query: Type.String({ minLength: 1, maxLength: MAX_SAVED_QUERY_LENGTH, description: 'the query to take out (normalised as saves are: trimmed, spaces collapsed)' }) });
export const BlockResponse = Type.Object({
  query: Type.String({ description: 'the normalised query now blocked' }),
  blocked: Type.Boolean({ description: 'false when it was blocked already' }),
  removed: Type.Integer({ description: 'saved rows of it deleted' }),
});
export const BlockedQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
});
export const BlockedResponse = Type.Object({ queries: Type.Array(Type.Object({ query: Type.String(), blockedAt: Type.String({ format: 'date-time' }) })) });
