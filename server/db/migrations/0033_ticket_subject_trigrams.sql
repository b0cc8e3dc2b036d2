CREATE TABLE `helpdesk_trigram_docs` (
	`doc` integer PRIMARY KEY NOT NULL,
	`ticket_id` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `helpdesk_trigram_docs_ticket_id_unique` ON `helpdesk_trigram_docs` (`ticket_id`);
--> statement-breakpoint
CREATE TABLE `helpdesk_trigram_entities` (
	`ordinal` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`entity_id` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `helpdesk_trigram_entities_entity_id_unique` ON `helpdesk_trigram_entities` (`entity_id`);--> statement-breakpoint
-- The spec's `search` on tickets (a case-insensitive substring of the subject) from an index: each
-- ticket's `search_text` (its subject lowered, as the needle is) cut into trigrams, case kept. A
-- phrase of the needle's trigrams matches exactly the subjects holding the needle (needles of 3
-- or more characters; shorter ones scan). Keys: see helpdesk_trigram_docs in helpdesk/tables.ts.
CREATE VIRTUAL TABLE helpdesk_subject_trigrams USING fts5(search_text, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 1');
--> statement-breakpoint
CREATE TRIGGER helpdesk_tickets_trigrams_insert AFTER INSERT ON helpdesk_tickets
BEGIN
  INSERT OR IGNORE INTO helpdesk_trigram_entities (entity_id) VALUES (NEW.entity_id);
  INSERT INTO helpdesk_trigram_docs (doc, ticket_id) SELECT coalesce((SELECT max(doc) FROM helpdesk_trigram_docs WHERE doc > b AND doc < b + 1099511627776), b) + 1, NEW.id
    FROM (SELECT ordinal * 1099511627776 AS b FROM helpdesk_trigram_entities WHERE entity_id = NEW.entity_id);
  INSERT INTO helpdesk_subject_trigrams (rowid, search_text) VALUES ((SELECT doc FROM helpdesk_trigram_docs WHERE ticket_id = NEW.id), NEW.search_text);
END;
--> statement-breakpoint
CREATE TRIGGER helpdesk_tickets_trigrams_update AFTER UPDATE OF search_text, entity_id ON helpdesk_tickets
BEGIN
  DELETE FROM helpdesk_subject_trigrams WHERE rowid = (SELECT doc FROM helpdesk_trigram_docs WHERE ticket_id = OLD.id);
  DELETE FROM helpdesk_trigram_docs WHERE ticket_id = OLD.id;
  INSERT OR IGNORE INTO helpdesk_trigram_entities (entity_id) VALUES (NEW.entity_id);
  INSERT INTO helpdesk_trigram_docs (doc, ticket_id) SELECT coalesce((SELECT max(doc) FROM helpdesk_trigram_docs WHERE doc > b AND doc < b + 1099511627776), b) + 1, NEW.id
    FROM (SELECT ordinal * 1099511627776 AS b FROM helpdesk_trigram_entities WHERE entity_id = NEW.entity_id);
  INSERT INTO helpdesk_subject_trigrams (rowid, search_text) VALUES ((SELECT doc FROM helpdesk_trigram_docs WHERE ticket_id = NEW.id), NEW.search_text);
END;
--> statement-breakpoint
CREATE TRIGGER helpdesk_tickets_trigrams_delete AFTER DELETE ON helpdesk_tickets
BEGIN
  DELETE FROM helpdesk_subject_trigrams WHERE rowid = (SELECT doc FROM helpdesk_trigram_docs WHERE ticket_id = OLD.id);
  DELETE FROM helpdesk_trigram_docs WHERE ticket_id = OLD.id;
END;
--> statement-breakpoint
INSERT INTO helpdesk_trigram_entities (entity_id) SELECT DISTINCT entity_id FROM helpdesk_tickets ORDER BY entity_id;
--> statement-breakpoint
INSERT INTO helpdesk_trigram_docs (doc, ticket_id)
  SELECT e.ordinal * 1099511627776 + row_number() OVER (PARTITION BY t.entity_id ORDER BY t.created_at, t.id), t.id FROM helpdesk_tickets t JOIN helpdesk_trigram_entities e ON e.entity_id = t.entity_id;
--> statement-breakpoint
INSERT INTO helpdesk_subject_trigrams (rowid, search_text) SELECT d.doc, t.search_text FROM helpdesk_trigram_docs d JOIN helpdesk_tickets t ON t.id = d.ticket_id;
