-- Journal entries and lines are append-only: never updated, and never deleted while their
-- entity exists (deleting a whole entity cascades through them).
CREATE TRIGGER ledger_entries_no_update BEFORE UPDATE ON ledger_entries
BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only'); END;
--> statement-breakpoint
CREATE TRIGGER ledger_entries_no_delete BEFORE DELETE ON ledger_entries
WHEN EXISTS (SELECT 1 FROM entities WHERE id = OLD.entity_id)
BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only'); END;
--> statement-breakpoint
CREATE TRIGGER ledger_lines_no_update BEFORE UPDATE ON ledger_lines
BEGIN SELECT RAISE(ABORT, 'ledger lines are append-only'); END;
--> statement-breakpoint
CREATE TRIGGER ledger_lines_no_delete BEFORE DELETE ON ledger_lines
WHEN EXISTS (SELECT 1 FROM entities WHERE id = OLD.entity_id)
BEGIN SELECT RAISE(ABORT, 'ledger lines are append-only'); END;
