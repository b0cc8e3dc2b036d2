-- Ticket search matches the subject only (the API contract); the ticket number has its own filter.
-- unicode_lower() is registered on every connection by openDatabase (SQLite's lower() is ASCII-only).
UPDATE helpdesk_tickets SET search_text = unicode_lower(subject);
