-- A text page's chunk is about 235 KB of JSON, compressed when Postgres stores it out of line.
-- pglz, the default, spent about 4 of the 12 ms of database CPU a stored page took (measured on
-- Postgres 15: 11.7-12.2 ms with pglz, 7.6-7.8 ms with lz4, 53 against 44 KB stored a page), so
-- the chunks' entities are compressed with lz4. Rows already stored keep pglz until rewritten;
-- both read alike. A server built without lz4 (some embedded builds) keeps pglz.
DO $$
BEGIN
  ALTER TABLE "DocumentChunk" ALTER COLUMN "entities" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'this Postgres has no lz4: DocumentChunk.entities stays compressed with pglz';
END
$$;
