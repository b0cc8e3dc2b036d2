CREATE TABLE `document_texts` (
	`entity_id` text NOT NULL,
	`sha256` text NOT NULL,
	`text` text NOT NULL,
	`failed` integer DEFAULT false NOT NULL,
	`extracted_at` text NOT NULL,
	PRIMARY KEY(`entity_id`, `sha256`)
);
--> statement-breakpoint
CREATE TABLE `documents_search_docs` (
	`doc` integer PRIMARY KEY NOT NULL,
	`document_id` text NOT NULL,
	`entity_id` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `documents_search_docs_document_uq` ON `documents_search_docs` (`document_id`);--> statement-breakpoint
CREATE TABLE `ledger_search_docs` (
	`doc` integer PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`entity_id` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_search_docs_event_uq` ON `ledger_search_docs` (`event_id`);--> statement-breakpoint
CREATE INDEX `documents_sha_idx` ON `documents` (`entity_id`,`sha256`);--> statement-breakpoint
-- Full-text search over documents (name, and the text read from the PDF) and ledger events (their
-- type, the payload's and metadata's text — descriptions, counterparties, numbers, references —
-- and the correlation and idempotency keys). As for tickets (0019), the index's rows are kept by
-- triggers in the transaction that writes the source row, on every path (the API, filing a signed
-- copy, sync applying another device's rows); unicode61 folds case and diacritics.
CREATE VIRTUAL TABLE documents_search USING fts5(name, body, tokenize = 'unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER documents_search_insert AFTER INSERT ON documents
BEGIN
  INSERT INTO documents_search_docs (document_id, entity_id) VALUES (NEW.id, NEW.entity_id);
  INSERT INTO documents_search (rowid, name, body) VALUES ((SELECT doc FROM documents_search_docs WHERE document_id = NEW.id), NEW.name,
    coalesce((SELECT text FROM document_texts WHERE entity_id = NEW.entity_id AND sha256 = NEW.sha256), ''));
END;
--> statement-breakpoint
CREATE TRIGGER documents_search_update AFTER UPDATE OF name, sha256 ON documents
BEGIN
  UPDATE documents_search SET name = NEW.name, body = coalesce((SELECT text FROM document_texts WHERE entity_id = NEW.entity_id AND sha256 = NEW.sha256), '')
  WHERE rowid = (SELECT doc FROM documents_search_docs WHERE document_id = NEW.id);
END;
--> statement-breakpoint
CREATE TRIGGER documents_search_delete AFTER DELETE ON documents
BEGIN
  DELETE FROM documents_search WHERE rowid = (SELECT doc FROM documents_search_docs WHERE document_id = OLD.id);
  DELETE FROM documents_search_docs WHERE document_id = OLD.id;
END;
--> statement-breakpoint
-- Text read later than the document was written (extraction runs after the upload, or after the
-- bytes of a synced document arrive) reaches every document with those bytes.
CREATE TRIGGER document_texts_search_insert AFTER INSERT ON document_texts
BEGIN
  UPDATE documents_search SET body = NEW.text
  WHERE rowid IN (SELECT s.doc FROM documents d JOIN documents_search_docs s ON s.document_id = d.id WHERE d.entity_id = NEW.entity_id AND d.sha256 = NEW.sha256);
END;
--> statement-breakpoint
CREATE TRIGGER document_texts_search_delete AFTER DELETE ON document_texts
BEGIN
  UPDATE documents_search SET body = ''
  WHERE rowid IN (SELECT s.doc FROM documents d JOIN documents_search_docs s ON s.document_id = d.id WHERE d.entity_id = OLD.entity_id AND d.sha256 = OLD.sha256);
END;
--> statement-breakpoint
CREATE VIRTUAL TABLE ledger_search USING fts5(body, tokenize = 'unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER ledger_events_search_insert AFTER INSERT ON ledger_events
BEGIN
  INSERT INTO ledger_search_docs (event_id, entity_id) VALUES (NEW.id, NEW.entity_id);
  INSERT INTO ledger_search (rowid, body) VALUES ((SELECT doc FROM ledger_search_docs WHERE event_id = NEW.id),
    NEW.type || char(10) || coalesce((SELECT group_concat(value, char(10)) FROM json_tree(NEW.payload) WHERE type = 'text'), '')
    || char(10) || coalesce((SELECT group_concat(value, char(10)) FROM json_tree(NEW.metadata) WHERE type = 'text'), '')
    || char(10) || coalesce(NEW.correlation_id, '') || char(10) || coalesce(NEW.idempotency_key, ''));
END;
--> statement-breakpoint
CREATE TRIGGER ledger_events_search_update AFTER UPDATE OF type, payload, metadata, correlation_id, idempotency_key ON ledger_events
BEGIN
  UPDATE ledger_search SET body = NEW.type || char(10) || coalesce((SELECT group_concat(value, char(10)) FROM json_tree(NEW.payload) WHERE type = 'text'), '')
    || char(10) || coalesce((SELECT group_concat(value, char(10)) FROM json_tree(NEW.metadata) WHERE type = 'text'), '')
    || char(10) || coalesce(NEW.correlation_id, '') || char(10) || coalesce(NEW.idempotency_key, '')
  WHERE rowid = (SELECT doc FROM ledger_search_docs WHERE event_id = NEW.id);
END;
--> statement-breakpoint
CREATE TRIGGER ledger_events_search_delete AFTER DELETE ON ledger_events
BEGIN
  DELETE FROM ledger_search WHERE rowid = (SELECT doc FROM ledger_search_docs WHERE event_id = OLD.id);
  DELETE FROM ledger_search_docs WHERE event_id = OLD.id;
END;
--> statement-breakpoint
-- The documents and events already here (in creation order, so the index's order is the lists').
INSERT INTO documents_search_docs (document_id, entity_id) SELECT id, entity_id FROM documents ORDER BY created_at, id;
--> statement-breakpoint
INSERT INTO documents_search (rowid, name, body) SELECT s.doc, d.name, '' FROM documents d JOIN documents_search_docs s ON s.document_id = d.id;
--> statement-breakpoint
INSERT INTO ledger_search_docs (event_id, entity_id) SELECT id, entity_id FROM ledger_events ORDER BY created_at, id;
--> statement-breakpoint
INSERT INTO ledger_search (rowid, body) SELECT s.doc,
    e.type || char(10) || coalesce((SELECT group_concat(value, char(10)) FROM json_tree(e.payload) WHERE type = 'text'), '')
    || char(10) || coalesce((SELECT group_concat(value, char(10)) FROM json_tree(e.metadata) WHERE type = 'text'), '')
    || char(10) || coalesce(e.correlation_id, '') || char(10) || coalesce(e.idempotency_key, '')
  FROM ledger_events e JOIN ledger_search_docs s ON s.event_id = e.id;
