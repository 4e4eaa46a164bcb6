-- SPDX-License-Identifier: GPL-3.0-or-later
-- sqlite_insert: the sqlite3 shell inserting and indexing @ROWS@ rows in an
-- in-memory database (so the pages live on the heap, not in a file), then
-- querying through the index. run.sh replaces @ROWS@ before running it.
CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, category INTEGER, price REAL);
BEGIN;
WITH RECURSIVE counter(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM counter WHERE n < @ROWS@)
INSERT INTO item (id, name, category, price)
SELECT n, printf('item-%08d', (n * 7919) % 1000003), n % 97, (n % 1000) / 10.0 FROM counter;
COMMIT;
CREATE INDEX item_by_name ON item (name);
CREATE INDEX item_by_category_price ON item (category, price);
SELECT count(*), sum(price) FROM item WHERE category = 42;
SELECT count(*) FROM item WHERE name BETWEEN 'item-00100000' AND 'item-00200000';
