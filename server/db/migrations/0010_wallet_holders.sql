CREATE TABLE `wallet_holders` (
	`entity_id` text PRIMARY KEY NOT NULL,
	`node` text NOT NULL,
	`shielded_address` text NOT NULL,
	`owner_address` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
