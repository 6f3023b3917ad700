-- A 200000-row table with blobs of 100 B to 2 KB: built, scanned, indexed
-- (for bench/proof-chain.sh: sqlite3 :memory: < sq.sql).
CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, data BLOB);
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200000)
INSERT INTO t SELECT x, 'row-' || x, randomblob(100 + (x * 7919) % 1900) FROM c;
SELECT count(*), sum(length(data)) FROM t WHERE name LIKE 'row-1%';
SELECT sum(length(substr(data, 10, 500))) FROM t;
CREATE INDEX ti ON t(name);
