CREATE TABLE `helpdesk_categories` (
	`id` text PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`description` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `helpdesk_categories_name_idx` ON `helpdesk_categories` (`entity_id`,`name_key`);--> statement-breakpoint
CREATE TABLE `helpdesk_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`ticket_id` text NOT NULL,
	`author_type` text NOT NULL,
	`author_id` text,
	`author_name` text NOT NULL,
	`body` text NOT NULL,
	`is_internal` integer NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`ticket_id`) REFERENCES `helpdesk_tickets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `helpdesk_messages_ticket_idx` ON `helpdesk_messages` (`ticket_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `helpdesk_node` (
	`id` integer PRIMARY KEY NOT NULL,
	`tag` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `helpdesk_ticket_counters` (
	`entity_id` text NOT NULL,
	`node` text NOT NULL,
	`last_seq` integer NOT NULL,
	PRIMARY KEY(`entity_id`, `node`)
);
--> statement-breakpoint
CREATE TABLE `helpdesk_tickets` (
	`id` text PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`ticket_number` text NOT NULL,
	`subject` text NOT NULL,
	`description` text,
	`status` text NOT NULL,
	`priority` text NOT NULL,
	`channel` text NOT NULL,
	`contact_email` text,
	`contact_name` text,
	`category_id` text,
	`created_by` text,
	`assigned_to` text,
	`search_text` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`first_response_at` text,
	`resolved_at` text,
	`closed_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `helpdesk_tickets_number_idx` ON `helpdesk_tickets` (`entity_id`,`ticket_number`);--> statement-breakpoint
CREATE INDEX `helpdesk_tickets_list_idx` ON `helpdesk_tickets` (`entity_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `helpdesk_tickets_category_idx` ON `helpdesk_tickets` (`entity_id`,`category_id`);--> statement-breakpoint
CREATE TABLE `notification_reads` (
	`notification_id` text NOT NULL,
	`user_id` text NOT NULL,
	`read_at` text NOT NULL,
	PRIMARY KEY(`notification_id`, `user_id`),
	FOREIGN KEY (`notification_id`) REFERENCES `notifications`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`user_id` text,
	`type` text NOT NULL,
	`title` text NOT NULL,
	`body` text,
	`link` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `notifications_entity_idx` ON `notifications` (`entity_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `notifications_user_idx` ON `notifications` (`entity_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `webhook_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`delivery_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`trigger` text NOT NULL,
	`started_at` text NOT NULL,
	`duration_ms` integer NOT NULL,
	`status_code` integer,
	`success` integer NOT NULL,
	`error` text,
	`response_excerpt` text,
	FOREIGN KEY (`delivery_id`) REFERENCES `webhook_deliveries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_delivery_idx` ON `webhook_attempts` (`delivery_id`,`attempt`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`subscription_id` text NOT NULL,
	`event_id` text NOT NULL,
	`event_type` text NOT NULL,
	`payload` text NOT NULL,
	`status` text NOT NULL,
	`attempt_count` integer NOT NULL,
	`auto_attempts` integer NOT NULL,
	`next_attempt_at` text,
	`last_attempt_at` text,
	`last_status_code` integer,
	`last_error` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`subscription_id`) REFERENCES `webhook_subscriptions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_event_idx` ON `webhook_deliveries` (`subscription_id`,`event_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_list_idx` ON `webhook_deliveries` (`subscription_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `webhook_settings` (
	`entity_id` text PRIMARY KEY NOT NULL,
	`allow_local_targets` integer NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `webhook_subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`secret_sealed` text NOT NULL,
	`description` text,
	`enabled` integer NOT NULL,
	`disabled_reason` text,
	`disabled_at` text,
	`failing_since` text,
	`metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_subscriptions_entity_idx` ON `webhook_subscriptions` (`entity_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `ledger_accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`description` text,
	`system` integer NOT NULL,
	`archived_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_accounts_code_uq` ON `ledger_accounts` (`entity_id`,`code`);--> statement-breakpoint
CREATE TABLE `ledger_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`event_id` text NOT NULL,
	`kind` text NOT NULL,
	`reverses_entry_id` text,
	`description` text NOT NULL,
	`effective_at` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`event_id`) REFERENCES `ledger_events`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_entries_reverses_entry_id_unique` ON `ledger_entries` (`reverses_entry_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_entries_event_kind_uq` ON `ledger_entries` (`event_id`,`kind`);--> statement-breakpoint
CREATE INDEX `ledger_entries_effective_idx` ON `ledger_entries` (`entity_id`,`effective_at`,`id`);--> statement-breakpoint
CREATE TABLE `ledger_events` (
	`id` text PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`type` text NOT NULL,
	`timestamp` text NOT NULL,
	`payload` text NOT NULL,
	`source` text NOT NULL,
	`correlation_id` text,
	`idempotency_key` text,
	`input_hash` text NOT NULL,
	`schema_version` text NOT NULL,
	`metadata` text NOT NULL,
	`posting_status` text NOT NULL,
	`posting_error` text,
	`reclassified_from` text,
	`reclassified_to` text,
	`decided_by` text,
	`decided_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_events_idem_uq` ON `ledger_events` (`entity_id`,`idempotency_key`);--> statement-breakpoint
CREATE INDEX `ledger_events_list_idx` ON `ledger_events` (`entity_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `ledger_events_status_idx` ON `ledger_events` (`entity_id`,`posting_status`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `ledger_lines` (
	`id` text PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`entry_id` text NOT NULL,
	`position` integer NOT NULL,
	`account_id` text NOT NULL,
	`currency` text NOT NULL,
	`side` text NOT NULL,
	`amount` text NOT NULL,
	`memo` text,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`entry_id`) REFERENCES `ledger_entries`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `ledger_accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ledger_lines_entry_idx` ON `ledger_lines` (`entry_id`,`position`);--> statement-breakpoint
CREATE INDEX `ledger_lines_account_idx` ON `ledger_lines` (`entity_id`,`account_id`);--> statement-breakpoint
CREATE TABLE `ledger_settings` (
	`entity_id` text PRIMARY KEY NOT NULL,
	`approval_thresholds` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE cascade
);
