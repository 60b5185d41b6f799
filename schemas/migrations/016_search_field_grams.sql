-- Search bigrams tagged with their field: `grams` holds `t`, `s`, `v`, `m`, `d` and `c`
-- (title, source, venue, members, description, initials) followed by the bigram or character, so
-- a query can ask the GIN index for the documents whose title (or members …) holds a word. The
-- service writes them (shared/search/embedded.ts, document format 3) and rebuilds rows of an older
-- format at its next start; this migration only records the new meaning.
COMMENT ON COLUMN search_documents.grams IS 'field-tagged character bigrams and characters: t title, s source, v venue, m members, d description (bigrams only), c initials';
