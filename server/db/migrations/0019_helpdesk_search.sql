CREATE TABLE `helpdesk_search_docs` (
	`doc` integer PRIMARY KEY NOT NULL,
	`source_id` text NOT NULL,
	`entity_id` text NOT NULL,
	`ticket_id` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `helpdesk_search_docs_source_uq` ON `helpdesk_search_docs` (`source_id`);--> statement-breakpoint
CREATE INDEX `helpdesk_search_docs_ticket_idx` ON `helpdesk_search_docs` (`entity_id`,`ticket_id`);--> statement-breakpoint
-- Full-text search over tickets (subject, description, contact, number) and message bodies. The
-- index's rows are kept by triggers in the transaction that writes a ticket or a message, on
-- every path (the API, mail in, sync applying another device's rows); unicode61 folds case and
-- diacritics.
CREATE VIRTUAL TABLE helpdesk_search USING fts5(body, tokenize = 'unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER helpdesk_tickets_search_insert AFTER INSERT ON helpdesk_tickets
BEGIN
  INSERT INTO helpdesk_search_docs (source_id, entity_id, ticket_id) VALUES (NEW.id, NEW.entity_id, NEW.id);
  INSERT INTO helpdesk_search (rowid, body) VALUES ((SELECT doc FROM helpdesk_search_docs WHERE source_id = NEW.id),
    NEW.subject || char(10) || coalesce(NEW.description, '') || char(10) || coalesce(NEW.contact_name, '') || char(10) || coalesce(NEW.contact_email, '') || char(10) || NEW.ticket_number);
END;
--> statement-breakpoint
CREATE TRIGGER helpdesk_tickets_search_update AFTER UPDATE OF subject, description, contact_name, contact_email, ticket_number ON helpdesk_tickets
BEGIN
  UPDATE helpdesk_search SET body = NEW.subject || char(10) || coalesce(NEW.description, '') || char(10) || coalesce(NEW.contact_name, '') || char(10) || coalesce(NEW.contact_email, '') || char(10) || NEW.ticket_number
  WHERE rowid = (SELECT doc FROM helpdesk_search_docs WHERE source_id = NEW.id);
END;
--> statement-breakpoint
CREATE TRIGGER helpdesk_tickets_search_delete AFTER DELETE ON helpdesk_tickets
BEGIN
  DELETE FROM helpdesk_search WHERE rowid = (SELECT doc FROM helpdesk_search_docs WHERE source_id = OLD.id);
  DELETE FROM helpdesk_search_docs WHERE source_id = OLD.id;
END;
--> statement-breakpoint
-- System messages (the timeline: "Status changed … by …") are not what anyone searches for.
CREATE TRIGGER helpdesk_messages_search_insert AFTER INSERT ON helpdesk_messages
WHEN NEW.author_type <> 'system'
BEGIN
  INSERT INTO helpdesk_search_docs (source_id, entity_id, ticket_id) VALUES (NEW.id, NEW.entity_id, NEW.ticket_id);
  INSERT INTO helpdesk_search (rowid, body) VALUES ((SELECT doc FROM helpdesk_search_docs WHERE source_id = NEW.id), NEW.body);
END;
--> statement-breakpoint
CREATE TRIGGER helpdesk_messages_search_update AFTER UPDATE OF body ON helpdesk_messages
BEGIN
  UPDATE helpdesk_search SET body = NEW.body WHERE rowid = (SELECT doc FROM helpdesk_search_docs WHERE source_id = NEW.id);
END;
--> statement-breakpoint
CREATE TRIGGER helpdesk_messages_search_delete AFTER DELETE ON helpdesk_messages
BEGIN
  DELETE FROM helpdesk_search WHERE rowid = (SELECT doc FROM helpdesk_search_docs WHERE source_id = OLD.id);
  DELETE FROM helpdesk_search_docs WHERE source_id = OLD.id;
END;
--> statement-breakpoint
-- The tickets and messages already here.
INSERT INTO helpdesk_search_docs (source_id, entity_id, ticket_id) SELECT id, entity_id, id FROM helpdesk_tickets;
--> statement-breakpoint
INSERT INTO helpdesk_search_docs (source_id, entity_id, ticket_id) SELECT id, entity_id, ticket_id FROM helpdesk_messages WHERE author_type <> 'system';
--> statement-breakpoint
INSERT INTO helpdesk_search (rowid, body) SELECT d.doc, t.subject || char(10) || coalesce(t.description, '') || char(10) || coalesce(t.contact_name, '') || char(10) || coalesce(t.contact_email, '') || char(10) || t.ticket_number
  FROM helpdesk_tickets t JOIN helpdesk_search_docs d ON d.source_id = t.id;
--> statement-breakpoint
INSERT INTO helpdesk_search (rowid, body) SELECT d.doc, m.body FROM helpdesk_messages m JOIN helpdesk_search_docs d ON d.source_id = m.id;
