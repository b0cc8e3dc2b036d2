CREATE TABLE `folder_grants` (
	`id` text PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`folder_id` text NOT NULL,
	`user_id` text,
	`role` text,
	`level` text NOT NULL,
	`created_by` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`folder_id`) REFERENCES `folders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `folder_grants_folder_idx` ON `folder_grants` (`entity_id`,`folder_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `folder_grants_user_uq` ON `folder_grants` (`folder_id`,`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `folder_grants_role_uq` ON `folder_grants` (`folder_id`,`role`);--> statement-breakpoint
CREATE TABLE `folders` (
	`id` text PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`parent_id` text,
	`color` text NOT NULL,
	`icon` text NOT NULL,
	`created_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `folders_entity_idx` ON `folders` (`entity_id`,`parent_id`);--> statement-breakpoint
CREATE TABLE `documents` (
	`id` text PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`folder_id` text,
	`name` text NOT NULL,
	`sha256` text NOT NULL,
	`size` integer NOT NULL,
	`page_count` integer NOT NULL,
	`pages` text NOT NULL,
	`position` integer,
	`uploaded_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `documents_entity_idx` ON `documents` (`entity_id`,`folder_id`);--> statement-breakpoint
CREATE TABLE `signature_audit` (
	`id` text PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`request_id` text NOT NULL,
	`seq` integer NOT NULL,
	`type` text NOT NULL,
	`actor_type` text NOT NULL,
	`actor_id` text,
	`actor_name` text NOT NULL,
	`ip` text,
	`user_agent` text,
	`data` text NOT NULL,
	`created_at` text NOT NULL,
	`prev_hash` text NOT NULL,
	`hash` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `signature_audit_seq_uq` ON `signature_audit` (`request_id`,`seq`);--> statement-breakpoint
CREATE INDEX `signature_audit_entity_idx` ON `signature_audit` (`entity_id`,`request_id`);--> statement-breakpoint
CREATE TABLE `signature_fields` (
	`id` text PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`request_id` text NOT NULL,
	`signer_id` text NOT NULL,
	`type` text NOT NULL,
	`page` integer NOT NULL,
	`x` real NOT NULL,
	`y` real NOT NULL,
	`width` real NOT NULL,
	`height` real NOT NULL,
	`required` integer NOT NULL,
	`label` text,
	`value` text,
	`filled_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`request_id`) REFERENCES `signature_requests`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`signer_id`) REFERENCES `signers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `signature_fields_request_idx` ON `signature_fields` (`entity_id`,`request_id`);--> statement-breakpoint
CREATE TABLE `signature_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`document_id` text NOT NULL,
	`title` text NOT NULL,
	`message` text DEFAULT '' NOT NULL,
	`status` text NOT NULL,
	`signing_order` text NOT NULL,
	`due_date` text,
	`auto_remind` integer DEFAULT true NOT NULL,
	`link_base_url` text,
	`signed_sha256` text,
	`created_by` text,
	`created_by_name` text,
	`sent_at` text,
	`completed_at` text,
	`cancelled_at` text,
	`declined_at` text,
	`expired_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `signature_requests_entity_idx` ON `signature_requests` (`entity_id`,`status`);--> statement-breakpoint
CREATE INDEX `signature_requests_document_idx` ON `signature_requests` (`document_id`);--> statement-breakpoint
CREATE TABLE `signers` (
	`id` text PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`request_id` text NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`role` text NOT NULL,
	`order` integer NOT NULL,
	`status` text NOT NULL,
	`token_hash` text NOT NULL,
	`token_sealed` text NOT NULL,
	`sent_at` text,
	`viewed_at` text,
	`signed_at` text,
	`declined_at` text,
	`decline_reason` text,
	`signed_ip` text,
	`signed_user_agent` text,
	`last_notified_at` text,
	`reminders_sent` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`request_id`) REFERENCES `signature_requests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `signers_token_uq` ON `signers` (`token_hash`);--> statement-breakpoint
CREATE INDEX `signers_request_idx` ON `signers` (`entity_id`,`request_id`);--> statement-breakpoint
CREATE INDEX `signers_email_idx` ON `signers` (`entity_id`,`email`);--> statement-breakpoint
CREATE TABLE `signing_certificates` (
	`entity_id` text PRIMARY KEY NOT NULL,
	`cert_pem` text NOT NULL,
	`key_sealed` text NOT NULL,
	`fingerprint` text NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `mail_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`to` text NOT NULL,
	`subject` text NOT NULL,
	`body_sealed` text NOT NULL,
	`ref` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text NOT NULL,
	`last_error` text,
	`message_id` text,
	`sent_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mail_outbox_due_idx` ON `mail_outbox` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `mail_outbox_entity_idx` ON `mail_outbox` (`entity_id`,`id`);