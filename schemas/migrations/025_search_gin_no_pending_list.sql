-- The search table's GIN index keeps no pending list (fastupdate off). With it on, written rows'
-- keys wait in an unsorted list that every bitmap scan of the index reads whole, once per
-- containment (a scoring statement asks for 25): 148 pending pages after 833 rewritten documents
-- made a two-word search of the benchmark's 50,000 documents 12 → 26 ms, and the list grows to
-- 4 MB before a writer flushes it. Only (auto)vacuum emptied it: a rebuild's ANALYZE does not.
-- Writes now insert their keys into the index itself (3.5 ms a document, 1.3 with the list); a
-- rebuild fills its new index with the list on, then flushes it and turns it off
-- (EmbeddedSearchIndex.rebuild).
DO $$
DECLARE
  gin_index regclass;
BEGIN
  FOR gin_index IN
    SELECT i.indexrelid::regclass
      FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
     WHERE i.indrelid = 'search_documents'::regclass AND a.amname = 'gin'
  LOOP
    PERFORM gin_clean_pending_list(gin_index);
    EXECUTE format('ALTER INDEX %s SET (fastupdate = off)', gin_index);
  END LOOP;
END
$$;
