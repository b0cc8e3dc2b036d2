CREATE TABLE `helpdesk_settings` (
	`entity_id` text PRIMARY KEY NOT NULL,
	`ticket_prefix` text,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `helpdesk_tickets` ADD `provisional_number` text;