-- Search (api-service.md 2.7, 4.4): the embedded index, school names with their short forms
-- (name resolution at sync time), saved searches and the suggestion engine's user dictionary.

-- The embedded search index. No foreign key to schedules on purpose: like an external engine, it
-- is updated by the indexer (and inline after admin writes), not by the schedule's own delete.
CREATE TABLE search_documents (
  schedule_id  integer PRIMARY KEY,
  category_id  integer NOT NULL,
  date         date    NOT NULL,
  title_key        text NOT NULL,   -- normalised, spaces removed
  source_key       text NOT NULL,   -- school name and its short forms, channel or account
  members_key      text NOT NULL,   -- member names and nicknames
  description_key  text NOT NULL,
  choseong_key     text NOT NULL,   -- initial consonants of title, source and members
  grams            text[] NOT NULL, -- character bigrams of all of the above
  indexed_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX search_documents_grams ON search_documents USING gin (grams);
CREATE INDEX search_documents_date ON search_documents (date DESC, schedule_id DESC);

CREATE TABLE school_names (
  full_name    text PRIMARY KEY,
  short_names  text[] NOT NULL
);
INSERT INTO school_names (full_name, short_names) VALUES
  ('한국외국어대학교', '{한국외대,외대,HUFS}'),
  ('성균관대학교', '{성균관대,성대,SKKU}'),
  ('고려대학교', '{고려대,고대}'),
  ('연세대학교', '{연세대,연대}'),
  ('서울대학교', '{서울대,SNU}'),
  ('이화여자대학교', '{이화여대,이대}'),
  ('중앙대학교', '{중앙대,중대}'),
  ('경희대학교', '{경희대}'),
  ('한양대학교', '{한양대}'),
  ('서강대학교', '{서강대}'),
  ('건국대학교', '{건국대,건대}'),
  ('동국대학교', '{동국대}'),
  ('홍익대학교', '{홍익대,홍대}'),
  ('숙명여자대학교', '{숙명여대,숙대}'),
  ('국민대학교', '{국민대}'),
  ('숭실대학교', '{숭실대}'),
  ('세종대학교', '{세종대}'),
  ('광운대학교', '{광운대}'),
  ('명지대학교', '{명지대}'),
  ('단국대학교', '{단국대,단대}'),
  ('인하대학교', '{인하대}'),
  ('아주대학교', '{아주대}'),
  ('부산대학교', '{부산대}'),
  ('경북대학교', '{경북대}'),
  ('전남대학교', '{전남대}'),
  ('충남대학교', '{충남대}'),
  ('한국과학기술원', '{카이스트,KAIST}'),
  ('포항공과대학교', '{포스텍,포공,POSTECH}'),
  ('서울과학기술대학교', '{서울과기대,과기대}'),
  ('한국예술종합학교', '{한예종}'),
  ('서울시립대학교', '{시립대}'),
  ('성신여자대학교', '{성신여대}'),
  ('동덕여자대학교', '{동덕여대}'),
  ('덕성여자대학교', '{덕성여대}'),
  ('서울여자대학교', '{서울여대}'),
  ('한국항공대학교', '{항공대}'),
  ('가톨릭대학교', '{가톨릭대,가대}'),
  ('상명대학교', '{상명대}'),
  ('한성대학교', '{한성대}'),
  ('가천대학교', '{가천대}');

-- Saved searches: one row per finished search a client reported (popularity, recency).
CREATE TABLE saved_searches (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  query       text NOT NULL,            -- normalised: trimmed, spaces collapsed
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX saved_searches_recent ON saved_searches (created_at DESC);
CREATE INDEX saved_searches_query ON saved_searches (query);

-- The user dictionary of the suggestion engine (one row).
CREATE TABLE user_dictionary (
  id          integer PRIMARY KEY CHECK (id = 1),
  content     text NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now()
);
INSERT INTO user_dictionary (id, content) VALUES (1, E'# 사용자 사전: 한 줄에 하나, 단어<TAB>품사 (NNP 고유명사, NNG 일반명사 ...)\n콘서트\tNNG\n팬사인회\tNNG\n쇼케이스\tNNG\n축제\tNNG\n');
