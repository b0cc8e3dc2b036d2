CREATE TABLE `notification_email_prefs` (
	`entity_id` text NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`email` integer NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`entity_id`, `user_id`, `kind`)
);
--> statement-breakpoint
ALTER TABLE `notification_reads` ADD `entity_id` text NOT NULL DEFAULT '';
--> statement-breakpoint
UPDATE `notification_reads` SET `entity_id` = (SELECT `entity_id` FROM `notifications` WHERE `notifications`.`id` = `notification_reads`.`notification_id`);
--> statement-breakpoint
CREATE TABLE `helpdesk_settings` (
	`entity_id` text PRIMARY KEY NOT NULL,
	`ticket_prefix` text,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `helpdesk_tickets` ADD `provisional_number` text;