-- work.sql: make check-real's sqlite3 workload, in an in-memory
-- database: a table filled with 5000 generated rows, an index, and
-- queries that use it, a join and a grouping.
CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT, price INTEGER, shelf INTEGER);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
INSERT INTO item(name, price, shelf)
   SELECT 'item-' || (i * 7919 % 5003), i * 37 % 1000, i % 50 FROM n;
CREATE INDEX item_price ON item(price);
CREATE TABLE shelf(id INTEGER PRIMARY KEY, label TEXT);
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 49)
INSERT INTO shelf SELECT i, 'shelf ' || i FROM n;
SELECT count(*), sum(price) FROM item WHERE price BETWEEN 100 AND 200;
SELECT name FROM item WHERE price = 500 ORDER BY name LIMIT 3;
SELECT s.label, count(*), max(i.price) FROM item i JOIN shelf s ON s.id = i.shelf
   GROUP BY s.id ORDER BY count(*) DESC, s.id LIMIT 5;
UPDATE item SET price = price + 1 WHERE shelf = 7;
DELETE FROM item WHERE price > 990;
SELECT count(*), min(name), max(name) FROM item;
