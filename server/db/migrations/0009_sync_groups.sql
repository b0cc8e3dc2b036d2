ALTER TABLE `sync_changes` ADD `group_id` text;--> statement-breakpoint
ALTER TABLE `sync_changes` ADD `inserted` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `sync_changes` ADD `reverted_at` text;--> statement-breakpoint
-- Journal rows stay append-only, with one exception: a device undoing its own change group that
-- the hosted instance refused (never accepted anywhere) may delete the rows that group wrote.
DROP TRIGGER ledger_entries_no_delete;
--> statement-breakpoint
CREATE TRIGGER ledger_entries_no_delete BEFORE DELETE ON ledger_entries
WHEN EXISTS (SELECT 1 FROM entities WHERE id = OLD.entity_id) AND NOT sync_undoing_refused()
BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only'); END;
--> statement-breakpoint
DROP TRIGGER ledger_lines_no_delete;
--> statement-breakpoint
CREATE TRIGGER ledger_lines_no_delete BEFORE DELETE ON ledger_lines
WHEN EXISTS (SELECT 1 FROM entities WHERE id = OLD.entity_id) AND NOT sync_undoing_refused()
BEGIN SELECT RAISE(ABORT, 'ledger lines are append-only'); END;
