-- Every full-text index (tickets, documents, ledger events) is keyed by time and scoped by entity,
-- so a list's first page and a match count are read from the index alone:
-- - an index row's key (its rowid, and `doc` in the *_search_docs map) is its source row's
--   creation time in milliseconds × 2,048 plus its place among that millisecond's rows. Walking
--   the index newest first (`ORDER BY rowid DESC LIMIT n`, which FTS5 stops early) is then the
--   lists' own order, also for rows that arrived by sync long after they were made. A row with no
--   readable time (or one before 1970), or past 2,048 in one millisecond, takes a negative key
--   below every other: the walk reads all of those first, whatever page it reads, so they are
--   never missed, and the list sorts what it reads (server/db/fts.ts).
-- - each row holds its entity as one token (`e` and the hex of its id) in an `entity` column, so
--   `entity : "e…" AND {body} : (…)` matches one entity's rows inside FTS5 — counting them needs
--   no join. The column is weighted 0 in bm25, and users' words are searched in the text columns only.
DROP TRIGGER helpdesk_tickets_search_insert;
--> statement-breakpoint
DROP TRIGGER helpdesk_tickets_search_update;
--> statement-breakpoint
DROP TRIGGER helpdesk_tickets_search_delete;
--> statement-breakpoint
DROP TRIGGER helpdesk_messages_search_insert;
--> statement-breakpoint
DROP TRIGGER helpdesk_messages_search_update;
--> statement-breakpoint
DROP TRIGGER helpdesk_messages_search_delete;
--> statement-breakpoint
DROP TABLE helpdesk_search;
--> statement-breakpoint
DELETE FROM helpdesk_search_docs;
--> statement-breakpoint
CREATE VIRTUAL TABLE helpdesk_search USING fts5(body, entity, tokenize = 'unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO helpdesk_search (helpdesk_search, rank) VALUES ('rank', 'bm25(1.0, 0.0)');
--> statement-breakpoint
CREATE TRIGGER helpdesk_tickets_search_insert AFTER INSERT ON helpdesk_tickets
BEGIN
  INSERT INTO helpdesk_search_docs (doc, source_id, entity_id, ticket_id) VALUES ((SELECT CASE WHEN b IS NULL OR b <= 0 OR top >= b + 2047 THEN (SELECT coalesce(min(doc), 0) - 1 FROM helpdesk_search_docs WHERE doc < 0) WHEN top IS NULL THEN b ELSE top + 1 END
      FROM (SELECT b, (SELECT max(doc) FROM helpdesk_search_docs WHERE doc BETWEEN b AND b + 2047) AS top
      FROM (SELECT CAST(round(unixepoch(NEW.created_at, 'subsec') * 1000) AS INTEGER) * 2048 AS b))), NEW.id, NEW.entity_id, NEW.id);
  INSERT INTO helpdesk_search (rowid, body, entity) VALUES ((SELECT doc FROM helpdesk_search_docs WHERE source_id = NEW.id),
    NEW.subject || char(10) || coalesce(NEW.description, '') || char(10) || coalesce(NEW.contact_name, '') || char(10) || coalesce(NEW.contact_email, '') || char(10) || NEW.ticket_number
    || char(10) || coalesce((SELECT group_concat(body, char(10)) FROM (SELECT body FROM helpdesk_messages WHERE ticket_id = NEW.id AND author_type <> 'system' ORDER BY created_at, id)), ''),
    'e' || hex(NEW.entity_id));
END;
--> statement-breakpoint
CREATE TRIGGER helpdesk_tickets_search_update AFTER UPDATE OF subject, description, contact_name, contact_email, ticket_number ON helpdesk_tickets
BEGIN
  UPDATE helpdesk_search SET body = NEW.subject || char(10) || coalesce(NEW.description, '') || char(10) || coalesce(NEW.contact_name, '') || char(10) || coalesce(NEW.contact_email, '') || char(10) || NEW.ticket_number
    || char(10) || coalesce((SELECT group_concat(body, char(10)) FROM (SELECT body FROM helpdesk_messages WHERE ticket_id = NEW.id AND author_type <> 'system' ORDER BY created_at, id)), '')
  WHERE rowid = (SELECT doc FROM helpdesk_search_docs WHERE source_id = NEW.id);
END;
--> statement-breakpoint
CREATE TRIGGER helpdesk_tickets_search_delete AFTER DELETE ON helpdesk_tickets
BEGIN
  DELETE FROM helpdesk_search WHERE rowid = (SELECT doc FROM helpdesk_search_docs WHERE source_id = OLD.id);
  DELETE FROM helpdesk_search_docs WHERE source_id = OLD.id;
END;
--> statement-breakpoint
CREATE TRIGGER helpdesk_messages_search_insert AFTER INSERT ON helpdesk_messages
WHEN NEW.author_type <> 'system'
BEGIN
  UPDATE helpdesk_search SET body = (SELECT t.subject || char(10) || coalesce(t.description, '') || char(10) || coalesce(t.contact_name, '') || char(10) || coalesce(t.contact_email, '') || char(10) || t.ticket_number
    || char(10) || coalesce((SELECT group_concat(body, char(10)) FROM (SELECT body FROM helpdesk_messages WHERE ticket_id = t.id AND author_type <> 'system' ORDER BY created_at, id)), '')
    FROM helpdesk_tickets t WHERE t.id = NEW.ticket_id)
  WHERE rowid = (SELECT doc FROM helpdesk_search_docs WHERE source_id = NEW.ticket_id);
END;
--> statement-breakpoint
CREATE TRIGGER helpdesk_messages_search_update AFTER UPDATE OF body, author_type ON helpdesk_messages
BEGIN
  UPDATE helpdesk_search SET body = (SELECT t.subject || char(10) || coalesce(t.description, '') || char(10) || coalesce(t.contact_name, '') || char(10) || coalesce(t.contact_email, '') || char(10) || t.ticket_number
    || char(10) || coalesce((SELECT group_concat(body, char(10)) FROM (SELECT body FROM helpdesk_messages WHERE ticket_id = t.id AND author_type <> 'system' ORDER BY created_at, id)), '')
    FROM helpdesk_tickets t WHERE t.id = NEW.ticket_id)
  WHERE rowid = (SELECT doc FROM helpdesk_search_docs WHERE source_id = NEW.ticket_id);
END;
--> statement-breakpoint
CREATE TRIGGER helpdesk_messages_search_delete AFTER DELETE ON helpdesk_messages
WHEN OLD.author_type <> 'system'
BEGIN
  UPDATE helpdesk_search SET body = (SELECT t.subject || char(10) || coalesce(t.description, '') || char(10) || coalesce(t.contact_name, '') || char(10) || coalesce(t.contact_email, '') || char(10) || t.ticket_number
    || char(10) || coalesce((SELECT group_concat(body, char(10)) FROM (SELECT body FROM helpdesk_messages WHERE ticket_id = t.id AND author_type <> 'system' ORDER BY created_at, id)), '')
    FROM helpdesk_tickets t WHERE t.id = OLD.ticket_id)
  WHERE rowid = (SELECT doc FROM helpdesk_search_docs WHERE source_id = OLD.ticket_id);
END;
--> statement-breakpoint
INSERT INTO helpdesk_search_docs (doc, source_id, entity_id, ticket_id) SELECT ms * 2048 + n - 1, id, entity_id, id FROM (SELECT *, CAST(round(unixepoch(created_at, 'subsec') * 1000) AS INTEGER) AS ms, row_number() OVER (PARTITION BY CAST(round(unixepoch(created_at, 'subsec') * 1000) AS INTEGER) ORDER BY created_at, id) AS n FROM helpdesk_tickets) WHERE ms > 0 AND n <= 2048
--> statement-breakpoint
INSERT INTO helpdesk_search_docs (doc, source_id, entity_id, ticket_id) SELECT -row_number() OVER (ORDER BY created_at, id), id, entity_id, id FROM (SELECT *, CAST(round(unixepoch(created_at, 'subsec') * 1000) AS INTEGER) AS ms, row_number() OVER (PARTITION BY CAST(round(unixepoch(created_at, 'subsec') * 1000) AS INTEGER) ORDER BY created_at, id) AS n FROM helpdesk_tickets) WHERE ms IS NULL OR ms <= 0 OR n > 2048;
--> statement-breakpoint
INSERT INTO helpdesk_search (rowid, body, entity) SELECT d.doc, t.subject || char(10) || coalesce(t.description, '') || char(10) || coalesce(t.contact_name, '') || char(10) || coalesce(t.contact_email, '') || char(10) || t.ticket_number
    || char(10) || coalesce((SELECT group_concat(body, char(10)) FROM (SELECT body FROM helpdesk_messages WHERE ticket_id = t.id AND author_type <> 'system' ORDER BY created_at, id)), ''),
    'e' || hex(t.entity_id)
  FROM helpdesk_tickets t JOIN helpdesk_search_docs d ON d.source_id = t.id;
--> statement-breakpoint
DROP TRIGGER documents_search_insert;
--> statement-breakpoint
DROP TRIGGER documents_search_update;
--> statement-breakpoint
DROP TRIGGER documents_search_delete;
--> statement-breakpoint
DROP TRIGGER document_texts_search_insert;
--> statement-breakpoint
DROP TRIGGER document_texts_search_delete;
--> statement-breakpoint
DROP TABLE documents_search;
--> statement-breakpoint
DELETE FROM documents_search_docs;
--> statement-breakpoint
CREATE VIRTUAL TABLE documents_search USING fts5(name, body, entity, tokenize = 'unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO documents_search (documents_search, rank) VALUES ('rank', 'bm25(1.0, 1.0, 0.0)');
--> statement-breakpoint
CREATE TRIGGER documents_search_insert AFTER INSERT ON documents
BEGIN
  INSERT INTO documents_search_docs (doc, document_id, entity_id) VALUES ((SELECT CASE WHEN b IS NULL OR b <= 0 OR top >= b + 2047 THEN (SELECT coalesce(min(doc), 0) - 1 FROM documents_search_docs WHERE doc < 0) WHEN top IS NULL THEN b ELSE top + 1 END
      FROM (SELECT b, (SELECT max(doc) FROM documents_search_docs WHERE doc BETWEEN b AND b + 2047) AS top
      FROM (SELECT CAST(round(unixepoch(NEW.created_at, 'subsec') * 1000) AS INTEGER) * 2048 AS b))), NEW.id, NEW.entity_id);
  INSERT INTO documents_search (rowid, name, body, entity) VALUES ((SELECT doc FROM documents_search_docs WHERE document_id = NEW.id), NEW.name,
    coalesce((SELECT text FROM document_texts WHERE entity_id = NEW.entity_id AND sha256 = NEW.sha256), ''), 'e' || hex(NEW.entity_id));
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
INSERT INTO documents_search_docs (doc, document_id, entity_id) SELECT ms * 2048 + n - 1, id, entity_id FROM (SELECT *, CAST(round(unixepoch(created_at, 'subsec') * 1000) AS INTEGER) AS ms, row_number() OVER (PARTITION BY CAST(round(unixepoch(created_at, 'subsec') * 1000) AS INTEGER) ORDER BY created_at, id) AS n FROM documents) WHERE ms > 0 AND n <= 2048
--> statement-breakpoint
INSERT INTO documents_search_docs (doc, document_id, entity_id) SELECT -row_number() OVER (ORDER BY created_at, id), id, entity_id FROM (SELECT *, CAST(round(unixepoch(created_at, 'subsec') * 1000) AS INTEGER) AS ms, row_number() OVER (PARTITION BY CAST(round(unixepoch(created_at, 'subsec') * 1000) AS INTEGER) ORDER BY created_at, id) AS n FROM documents) WHERE ms IS NULL OR ms <= 0 OR n > 2048;
--> statement-breakpoint
INSERT INTO documents_search (rowid, name, body, entity) SELECT s.doc, d.name, coalesce((SELECT text FROM document_texts WHERE entity_id = d.entity_id AND sha256 = d.sha256), ''), 'e' || hex(d.entity_id)
  FROM documents d JOIN documents_search_docs s ON s.document_id = d.id;
--> statement-breakpoint
DROP TRIGGER ledger_events_search_insert;
--> statement-breakpoint
DROP TRIGGER ledger_events_search_update;
--> statement-breakpoint
DROP TRIGGER ledger_events_search_delete;
--> statement-breakpoint
DROP TABLE ledger_search;
--> statement-breakpoint
DELETE FROM ledger_search_docs;
--> statement-breakpoint
CREATE VIRTUAL TABLE ledger_search USING fts5(body, entity, tokenize = 'unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO ledger_search (ledger_search, rank) VALUES ('rank', 'bm25(1.0, 0.0)');
--> statement-breakpoint
CREATE TRIGGER ledger_events_search_insert AFTER INSERT ON ledger_events
BEGIN
  INSERT INTO ledger_search_docs (doc, event_id, entity_id) VALUES ((SELECT CASE WHEN b IS NULL OR b <= 0 OR top >= b + 2047 THEN (SELECT coalesce(min(doc), 0) - 1 FROM ledger_search_docs WHERE doc < 0) WHEN top IS NULL THEN b ELSE top + 1 END
      FROM (SELECT b, (SELECT max(doc) FROM ledger_search_docs WHERE doc BETWEEN b AND b + 2047) AS top
      FROM (SELECT CAST(round(unixepoch(NEW.created_at, 'subsec') * 1000) AS INTEGER) * 2048 AS b))), NEW.id, NEW.entity_id);
  INSERT INTO ledger_search (rowid, body, entity) VALUES ((SELECT doc FROM ledger_search_docs WHERE event_id = NEW.id),
    NEW.type || char(10) || coalesce((SELECT group_concat(value, char(10)) FROM json_tree(NEW.payload) WHERE type = 'text'), '')
    || char(10) || coalesce((SELECT group_concat(value, char(10)) FROM json_tree(NEW.metadata) WHERE type = 'text'), '')
    || char(10) || coalesce(NEW.correlation_id, '') || char(10) || coalesce(NEW.idempotency_key, ''),
    'e' || hex(NEW.entity_id));
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
INSERT INTO ledger_search_docs (doc, event_id, entity_id) SELECT ms * 2048 + n - 1, id, entity_id FROM (SELECT *, CAST(round(unixepoch(created_at, 'subsec') * 1000) AS INTEGER) AS ms, row_number() OVER (PARTITION BY CAST(round(unixepoch(created_at, 'subsec') * 1000) AS INTEGER) ORDER BY created_at, id) AS n FROM ledger_events) WHERE ms > 0 AND n <= 2048
--> statement-breakpoint
INSERT INTO ledger_search_docs (doc, event_id, entity_id) SELECT -row_number() OVER (ORDER BY created_at, id), id, entity_id FROM (SELECT *, CAST(round(unixepoch(created_at, 'subsec') * 1000) AS INTEGER) AS ms, row_number() OVER (PARTITION BY CAST(round(unixepoch(created_at, 'subsec') * 1000) AS INTEGER) ORDER BY created_at, id) AS n FROM ledger_events) WHERE ms IS NULL OR ms <= 0 OR n > 2048;
--> statement-breakpoint
INSERT INTO ledger_search (rowid, body, entity) SELECT s.doc,
    e.type || char(10) || coalesce((SELECT group_concat(value, char(10)) FROM json_tree(e.payload) WHERE type = 'text'), '')
    || char(10) || coalesce((SELECT group_concat(value, char(10)) FROM json_tree(e.metadata) WHERE type = 'text'), '')
    || char(10) || coalesce(e.correlation_id, '') || char(10) || coalesce(e.idempotency_key, ''),
    'e' || hex(e.entity_id)
  FROM ledger_events e JOIN ledger_search_docs s ON s.event_id = e.id;
