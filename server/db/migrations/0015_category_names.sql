DROP INDEX `helpdesk_categories_name_idx`;--> statement-breakpoint
CREATE INDEX `helpdesk_categories_name_idx` ON `helpdesk_categories` (`entity_id`,`name_key`);