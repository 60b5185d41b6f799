-- Saved and blocked queries are stored under their confusable skeleton (Unicode TS #39) over the
-- normal form, with the format characters and the blank braille cell taken out, so a blocked query
-- blocks every string that looks the same. This migration's code step, `renormalizeStoredQueries`
-- (shared/db/data-migrations.ts), rewrites the rows stored under the older form in the same
-- transaction, merging those that now mean one query.
COMMENT ON COLUMN saved_searches.query IS 'normalizeQuery form: NFKC, invisible and format characters removed, confusable skeleton, Latin lower case';
COMMENT ON COLUMN blocked_searches.query IS 'normalizeQuery form: NFKC, invisible and format characters removed, confusable skeleton, Latin lower case';
