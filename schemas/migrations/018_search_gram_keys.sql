-- The field-tagged grams as 32-bit keys (document format 6): an int4 array holds a document's two
-- hundred-odd grams in under 1 KB, so its row stays below the TOAST threshold (the text array
-- was 2.6 KB, compressed by pglz on every write), its GIN entries compare as integers, and
-- planning a containment no longer compares text statistics. A key names its gram up to a rare
-- collision, which only adds a candidate: every candidate is checked on its text keys. The
-- service writes the keys and rebuilds older rows at its next start; the text grams' index goes.
-- `grams` stays (empty for new rows) for processes of the previous version during a rolling update.
ALTER TABLE search_documents ADD COLUMN gram_keys integer[] NOT NULL DEFAULT '{}';
ALTER TABLE search_documents ALTER COLUMN grams SET DEFAULT '{}';
CREATE INDEX search_documents_gram_keys ON search_documents USING gin (gram_keys);
DROP INDEX IF EXISTS search_documents_grams;
COMMENT ON COLUMN search_documents.gram_keys IS 'gramKey() of the field-tagged character bigrams and characters: t title, s source, v venue, m members, d description (bigrams only), c initials (consonant runs); y typo skeleton bigrams';
COMMENT ON COLUMN search_documents.grams IS 'unused since document format 6 (the grams are hashed into gram_keys)';
