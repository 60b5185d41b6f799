-- Search forgives typos and finds venues. The embedded index gains the event's venue
-- (name, address, road address) as its own ranked field, and a typo key: the title, source, venue
-- and member keys in jamo skeleton form (initial undoubled, vowel folded to its class, no final;
-- shared/korean/typo.ts) with its character bigrams GIN-indexed, the candidates of a query that
-- matches within one jamo edit. pg_trgm ships with the embedded PostgreSQL but is not used: its
-- trigrams keep only the characters the database's locale calls alphanumeric, and the embedded
-- cluster runs with locale C, where no Hangul character is one; a managed PostgreSQL may not let
-- the service create extensions either.
--
-- These keys are computed by the service (shared/search/embedded.ts), not in SQL: rows written
-- before this migration keep format 1 and the service rebuilds the index from the schedules at
-- its next start when any row is older than its document format (the reindex of this migration).
ALTER TABLE search_documents
  ADD COLUMN venue_key   text   NOT NULL DEFAULT '',   -- venue name, address, road address
  ADD COLUMN typo_key    text   NOT NULL DEFAULT '',   -- skeletons of title, source, venue, members
  ADD COLUMN typo_grams  text[] NOT NULL DEFAULT '{}', -- bigrams of typo_key's parts
  ADD COLUMN format      smallint NOT NULL DEFAULT 1;  -- document format of the writer
CREATE INDEX search_documents_typo_grams ON search_documents USING gin (typo_grams);
