-- Saved searches count networks, not addresses: three addresses of one /24 (or one IPv6 /48) are one
-- voice toward a suggestion. The network of rows saved before is derived from their stored client
-- key (an IPv4 address, or an IPv6 /64 key as `a:b:c:d::/64`).
ALTER TABLE saved_searches ADD COLUMN IF NOT EXISTS network text;
UPDATE saved_searches SET network = CASE
    WHEN client ~ '^\d+\.\d+\.\d+\.\d+$' THEN regexp_replace(client, '\.\d+$', '.0/24')
    WHEN client ~ '^[0-9a-f]+:[0-9a-f]+:[0-9a-f]+:[0-9a-f]+::/64$' THEN regexp_replace(client, ':[0-9a-f]+::/64$', '::/48')
    ELSE client
  END
  WHERE client IS NOT NULL AND network IS NULL;

-- The stored saved and blocked queries are rewritten into the stricter normal form (NFKC, every
-- default-ignorable and bidi code point removed) by this migration's code step,
-- `renormalizeStoredQueries` (shared/db/data-migrations.ts), in the same transaction.
