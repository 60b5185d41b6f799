-- The in-process bus (ARCHITECTURE.md, "Bus, topics and actors") and the transactional outbox.
-- Used when KAFKA_BROKERS is unset; the outbox is used in both cases.

-- One row per (topic, partition): `head` is the offset of the last message appended. Publishers
-- bump it with an upsert, so the row lock serialises appends to one partition until commit: offsets
-- are dense and become visible in offset order, and a consumer reading `seq > committed` never
-- skips a message that commits late (a plain identity column would allow that).
CREATE TABLE bus_partitions (
  topic      text    NOT NULL,
  partition  integer NOT NULL,
  head       bigint  NOT NULL,
  PRIMARY KEY (topic, partition)
);

CREATE TABLE bus_messages (
  id            bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  topic         text        NOT NULL,
  key           text        NOT NULL,
  partition     integer     NOT NULL,            -- fnv1a(key) mod 8, computed by the publisher
  seq           bigint      NOT NULL,            -- offset within (topic, partition), from 1
  value         jsonb       NOT NULL,
  headers       jsonb,                           -- DLQ copies: source topic, message id, error
  published_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (topic, partition, seq)
);
CREATE INDEX bus_messages_published_at ON bus_messages (published_at);

-- Committed offsets: the last `seq` a consumer group finished (handled, or sent to the DLQ).
CREATE TABLE bus_offsets (
  group_name  text        NOT NULL,
  topic       text        NOT NULL,
  partition   integer     NOT NULL,
  committed   bigint      NOT NULL DEFAULT 0,
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (group_name, topic, partition)
);

-- Transactional outbox: appended in the writer's transaction, published by the relay.
CREATE TABLE outbox (
  id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  topic       text        NOT NULL,
  key         text        NOT NULL,
  payload     jsonb       NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  sent_at     timestamptz
);
CREATE INDEX outbox_unsent ON outbox (id) WHERE sent_at IS NULL;
CREATE INDEX outbox_sent_at ON outbox (sent_at) WHERE sent_at IS NOT NULL;

-- Wake the relay when a writer commits (NOTIFY is delivered at commit, once per transaction).
CREATE FUNCTION outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('outbox', '');
  RETURN NULL;
END;
$$;
CREATE TRIGGER outbox_notify AFTER INSERT ON outbox FOR EACH STATEMENT EXECUTE FUNCTION outbox_notify();
