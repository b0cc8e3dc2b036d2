CREATE TABLE `entity_events` (
	`id` text PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`type` text NOT NULL,
	`data` text NOT NULL,
	`created_at` text NOT NULL,
	`origin` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `entity_events_entity_idx` ON `entity_events` (`entity_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `webhook_secrets` (
	`subscription_id` text NOT NULL,
	`version` text NOT NULL,
	`entity_id` text NOT NULL,
	`secret_sealed` text NOT NULL,
	`shared_at` text,
	PRIMARY KEY(`subscription_id`, `version`),
	FOREIGN KEY (`subscription_id`) REFERENCES `webhook_subscriptions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `outbox` ADD `replay_of` text;--> statement-breakpoint
ALTER TABLE `webhook_subscriptions` ADD `secret_version` text NOT NULL DEFAULT '';--> statement-breakpoint
INSERT INTO `webhook_secrets` (`subscription_id`, `version`, `entity_id`, `secret_sealed`) SELECT `id`, `id`, `entity_id`, `secret_sealed` FROM `webhook_subscriptions`;--> statement-breakpoint
UPDATE `webhook_subscriptions` SET `secret_version` = `id`;--> statement-breakpoint
ALTER TABLE `webhook_subscriptions` ADD `delivered_by` text;--> statement-breakpoint
ALTER TABLE `webhook_subscriptions` DROP COLUMN `secret_sealed`;