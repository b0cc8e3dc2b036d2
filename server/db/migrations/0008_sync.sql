CREATE TABLE `sync_changes` (
	`local_seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`change_id` text NOT NULL,
	`entity_id` text NOT NULL,
	`table_name` text NOT NULL,
	`row_id` text NOT NULL,
	`op` text NOT NULL,
	`columns` text NOT NULL,
	`expect` text,
	`hlc` text NOT NULL,
	`created_at` text NOT NULL,
	`result` text,
	`seq` integer,
	`reason` text,
	`answered_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sync_changes_change_id_idx` ON `sync_changes` (`change_id`);--> statement-breakpoint
CREATE INDEX `sync_changes_queue_idx` ON `sync_changes` (`entity_id`,`result`,`local_seq`);--> statement-breakpoint
CREATE TABLE `sync_links` (
	`entity_id` text PRIMARY KEY NOT NULL,
	`hosted_url` text NOT NULL,
	`account_id` text NOT NULL,
	`device_id` text NOT NULL,
	`device_token_sealed` text NOT NULL,
	`role` text NOT NULL,
	`cursor` integer DEFAULT 0 NOT NULL,
	`linked_at` text NOT NULL,
	`last_sync_at` text,
	`last_error` text,
	`last_error_status` integer,
	`server_time_offset_ms` integer
);
--> statement-breakpoint
CREATE TABLE `sync_node` (
	`id` integer PRIMARY KEY NOT NULL,
	`node` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sync_stamps` (
	`table_name` text NOT NULL,
	`row_id` text NOT NULL,
	`column` text NOT NULL,
	`hlc` text NOT NULL,
	PRIMARY KEY(`table_name`, `row_id`, `column`)
);
