CREATE TABLE `ledger_day_entries` (
	`entity_id` text NOT NULL,
	`day` text NOT NULL,
	`entries` integer NOT NULL,
	PRIMARY KEY(`entity_id`, `day`),
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- Entries per effective day, kept like the ledger's totals (0018): on insert, and on a delete
-- while the entity exists (a refused group undone, an orphan settled).
CREATE TRIGGER ledger_entries_count_insert AFTER INSERT ON ledger_entries
BEGIN
  INSERT INTO ledger_day_entries (entity_id, day, entries) VALUES (NEW.entity_id, substr(NEW.effective_at, 1, 10), 1)
  ON CONFLICT DO UPDATE SET entries = entries + 1;
END;
--> statement-breakpoint
CREATE TRIGGER ledger_entries_count_delete AFTER DELETE ON ledger_entries
WHEN EXISTS (SELECT 1 FROM entities WHERE id = OLD.entity_id)
BEGIN
  INSERT INTO ledger_day_entries (entity_id, day, entries) VALUES (OLD.entity_id, substr(OLD.effective_at, 1, 10), -1)
  ON CONFLICT DO UPDATE SET entries = entries - 1;
END;
--> statement-breakpoint
INSERT INTO ledger_day_entries (entity_id, day, entries) SELECT entity_id, substr(effective_at, 1, 10), count(*) FROM ledger_entries GROUP BY entity_id, substr(effective_at, 1, 10);
