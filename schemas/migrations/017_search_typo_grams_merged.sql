-- Typo candidates from the one GIN index: the skeleton bigrams of the typo key now sit in
-- `grams`, tagged `y` (document format 5), so a query that pairs a mistyped word with an exact one
-- asks the index for both at once instead of reading every document that holds the skeleton. The
-- service writes the new grams and rebuilds older rows at its next start; the separate index goes.
-- The column stays (with its default) for processes of the previous version still writing it
-- during a rolling update; nothing reads it any more.
DROP INDEX IF EXISTS search_documents_typo_grams;
COMMENT ON COLUMN search_documents.grams IS 'field-tagged character bigrams and characters: t title, s source, v venue, m members, d description (bigrams only), c initials (consonant runs); y typo skeleton bigrams';
COMMENT ON COLUMN search_documents.typo_grams IS 'unused since document format 5 (skeleton bigrams moved into grams, tag y)';
