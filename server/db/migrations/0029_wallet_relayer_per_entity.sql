CREATE TABLE `wallet_bundles` (
	`activity_id` text PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`chain` text NOT NULL,
	`bundle` text NOT NULL,
	`relay_error` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_wallet_relayers` (
	`chain` text NOT NULL,
	`entity_id` text DEFAULT '' NOT NULL,
	`owner_key_sealed` text NOT NULL,
	`account_address` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`chain`, `entity_id`)
);
--> statement-breakpoint
INSERT INTO `__new_wallet_relayers`("chain", "entity_id", "owner_key_sealed", "account_address", "created_at") SELECT "chain", '', "owner_key_sealed", "account_address", "created_at" FROM `wallet_relayers`;--> statement-breakpoint
DROP TABLE `wallet_relayers`;--> statement-breakpoint
ALTER TABLE `__new_wallet_relayers` RENAME TO `wallet_relayers`;--> statement-breakpoint
PRAGMA foreign_keys=ON;