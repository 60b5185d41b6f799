-- What the query-understanding step knows from the stored records besides their own names: aliases
-- of venues and members (an English name, a nickname, a name in another script) and translations of
-- album and track titles, added by administrators. The step reads them with the venues, members,
-- albums and tracks themselves, and reads them again only after `search_entities_version` moved:
-- statement triggers on every table it reads bump it, so a write through any path (the API, a bot,
-- the demo seed, psql) reaches every replica's next query that needs it.
CREATE TABLE search_aliases (
  id         integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind       text    NOT NULL CHECK (kind IN ('venue', 'member', 'album', 'track')),
  target_id  integer NOT NULL,
  alias      text    NOT NULL CHECK (length(alias) BETWEEN 1 AND 100),
  lang       text    NOT NULL DEFAULT 'other' CHECK (lang IN ('ko', 'en', 'ja', 'other')),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (kind, target_id, alias)
);

CREATE TABLE search_entities_version (
  id          integer PRIMARY KEY CHECK (id = 1),
  changed_at  timestamptz NOT NULL DEFAULT clock_timestamp()
);
INSERT INTO search_entities_version (id) VALUES (1) ON CONFLICT DO NOTHING;

CREATE OR REPLACE FUNCTION search_entities_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE search_entities_version SET changed_at = clock_timestamp() WHERE id = 1;
  RETURN NULL;
END $$;

CREATE TRIGGER venues_search_entities AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON venues
  FOR EACH STATEMENT EXECUTE FUNCTION search_entities_changed();
CREATE TRIGGER members_search_entities AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON members
  FOR EACH STATEMENT EXECUTE FUNCTION search_entities_changed();
CREATE TRIGGER albums_search_entities AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON albums
  FOR EACH STATEMENT EXECUTE FUNCTION search_entities_changed();
CREATE TRIGGER tracks_search_entities AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tracks
  FOR EACH STATEMENT EXECUTE FUNCTION search_entities_changed();
CREATE TRIGGER search_aliases_search_entities AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON search_aliases
  FOR EACH STATEMENT EXECUTE FUNCTION search_entities_changed();
