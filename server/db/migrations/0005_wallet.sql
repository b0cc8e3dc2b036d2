CREATE TABLE `wallet_accounts` (
	`entity_id` text NOT NULL,
	`chain` text NOT NULL,
	`address` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`entity_id`, `chain`)
);
--> statement-breakpoint
CREATE TABLE `wallet_activity` (
	`id` text PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`chain` text NOT NULL,
	`kind` text NOT NULL,
	`status` text NOT NULL,
	`token` text NOT NULL,
	`amount` text NOT NULL,
	`counterparty` text,
	`proof_id` text,
	`user_op_hash` text,
	`tx_hash` text,
	`nullifiers` text NOT NULL,
	`nullifier_key` text,
	`commitments` text NOT NULL,
	`error` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `wallet_activity_entity_idx` ON `wallet_activity` (`entity_id`,`created_at`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `wallet_activity_proof_idx` ON `wallet_activity` (`proof_id`);--> statement-breakpoint
CREATE INDEX `wallet_activity_nullifier_idx` ON `wallet_activity` (`nullifier_key`);--> statement-breakpoint
CREATE TABLE `wallet_keys` (
	`entity_id` text PRIMARY KEY NOT NULL,
	`seed_sealed` text NOT NULL,
	`owner_key_sealed` text NOT NULL,
	`owner_address` text NOT NULL,
	`shielded_address` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `wallet_notes` (
	`id` text PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`chain` text NOT NULL,
	`token` text NOT NULL,
	`amount` text NOT NULL,
	`blinding` text NOT NULL,
	`commitment` text NOT NULL,
	`leaf_index` integer NOT NULL,
	`nullifier` text NOT NULL,
	`tx_hash` text NOT NULL,
	`spent_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `wallet_notes_commitment_idx` ON `wallet_notes` (`entity_id`,`chain`,`commitment`);--> statement-breakpoint
CREATE INDEX `wallet_notes_unspent_idx` ON `wallet_notes` (`entity_id`,`chain`,`token`,`spent_at`);--> statement-breakpoint
CREATE TABLE `wallet_relayers` (
	`chain` text PRIMARY KEY NOT NULL,
	`owner_key_sealed` text NOT NULL,
	`account_address` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `wallet_relays` (
	`id` text PRIMARY KEY NOT NULL,
	`chain` text NOT NULL,
	`nullifier_key` text NOT NULL,
	`user_op_hash` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `wallet_relays_nullifiers_idx` ON `wallet_relays` (`chain`,`nullifier_key`);