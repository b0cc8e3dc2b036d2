-- The ticket search index holds one row per ticket (its subject, description, contact, number and
-- every message but the timeline's, in order) instead of one per ticket and one per message: a
-- search then matches tickets directly — no mapping of a message's row to its ticket and no
-- removing of duplicates, which made a common word's search cost more than the match itself
-- (tens of thousands of rows looked up and sorted per request). A message written, changed or
-- removed rewrites its ticket's row, in the same transaction (also for rows applied by sync).
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
CREATE TRIGGER helpdesk_tickets_search_insert AFTER INSERT ON helpdesk_tickets
BEGIN
  INSERT INTO helpdesk_search_docs (source_id, entity_id, ticket_id) VALUES (NEW.id, NEW.entity_id, NEW.id);
  INSERT INTO helpdesk_search (rowid, body) VALUES ((SELECT doc FROM helpdesk_search_docs WHERE source_id = NEW.id),
    NEW.subject || char(10) || coalesce(NEW.description, '') || char(10) || coalesce(NEW.contact_name, '') || char(10) || coalesce(NEW.contact_email, '') || char(10) || NEW.ticket_number
    || char(10) || coalesce((SELECT group_concat(body, char(10)) FROM (SELECT body FROM helpdesk_messages WHERE ticket_id = NEW.id AND author_type <> 'system' ORDER BY created_at, id)), ''));
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
-- System messages (the timeline: "Status changed … by …") are not what anyone searches for.
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
-- The index again, one row per ticket, in creation order.
DELETE FROM helpdesk_search;
--> statement-breakpoint
DELETE FROM helpdesk_search_docs;
--> statement-breakpoint
INSERT INTO helpdesk_search_docs (source_id, entity_id, ticket_id) SELECT id, entity_id, id FROM helpdesk_tickets ORDER BY created_at, id;
--> statement-breakpoint
INSERT INTO helpdesk_search (rowid, body) SELECT d.doc, t.subject || char(10) || coalesce(t.description, '') || char(10) || coalesce(t.contact_name, '') || char(10) || coalesce(t.contact_email, '') || char(10) || t.ticket_number
    || char(10) || coalesce((SELECT group_concat(body, char(10)) FROM (SELECT body FROM helpdesk_messages WHERE ticket_id = t.id AND author_type <> 'system' ORDER BY created_at, id)), '')
  FROM helpdesk_tickets t JOIN helpdesk_search_docs d ON d.source_id = t.id;
