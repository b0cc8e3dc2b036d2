CREATE TABLE `helpdesk_attachments` (
	`id` text PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`ticket_id` text NOT NULL,
	`message_id` text NOT NULL,
	`filename` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`sha256` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `helpdesk_attachments_ticket_idx` ON `helpdesk_attachments` (`entity_id`,`ticket_id`);--> statement-breakpoint
CREATE TABLE `helpdesk_deliveries` (
	`message_id` text PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`ticket_id` text NOT NULL,
	`to` text NOT NULL,
	`state` text NOT NULL,
	`error` text,
	`mail_id` text NOT NULL,
	`sent_at` text,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `helpdesk_deliveries_ticket_idx` ON `helpdesk_deliveries` (`entity_id`,`ticket_id`);--> statement-breakpoint
CREATE INDEX `helpdesk_deliveries_mail_idx` ON `helpdesk_deliveries` (`mail_id`);--> statement-breakpoint
CREATE TABLE `helpdesk_emails` (
	`id` text PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`ticket_id` text NOT NULL,
	`message_id` text NOT NULL,
	`direction` text NOT NULL,
	`header_id` text NOT NULL,
	`from_address` text NOT NULL,
	`attachments_note` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `helpdesk_emails_header_idx` ON `helpdesk_emails` (`entity_id`,`header_id`);--> statement-breakpoint
CREATE INDEX `helpdesk_emails_ticket_idx` ON `helpdesk_emails` (`entity_id`,`ticket_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `helpdesk_mailbox_imap` (
	`entity_id` text PRIMARY KEY NOT NULL,
	`host` text NOT NULL,
	`port` integer NOT NULL,
	`tls` integer NOT NULL,
	`user` text NOT NULL,
	`password_sealed` text NOT NULL,
	`state` text NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	`last_checked_at` text,
	`last_error` text,
	`next_attempt_at` text,
	`uid_validity` text,
	`last_uid` integer DEFAULT 0 NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `helpdesk_mailboxes` (
	`entity_id` text PRIMARY KEY NOT NULL,
	`address` text NOT NULL,
	`display_name` text,
	`signature` text,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `headers` text;