ALTER TABLE `sync_links` ADD `needs_snapshot` integer DEFAULT true NOT NULL;--> statement-breakpoint
-- Links made before this column: a cursor past 0 means a snapshot (or the whole log) was taken.
UPDATE `sync_links` SET `needs_snapshot` = false WHERE `cursor` > 0;
