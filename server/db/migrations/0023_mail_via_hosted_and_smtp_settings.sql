CREATE TABLE `mail_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`host` text NOT NULL,
	`port` integer NOT NULL,
	`security` text NOT NULL,
	`username` text,
	`password_sealed` text,
	`from_address` text NOT NULL,
	`from_name` text,
	`updated_at` text NOT NULL,
	`updated_by` text
);
--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `via` text;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `purpose_key` text;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `drop_reason` text;