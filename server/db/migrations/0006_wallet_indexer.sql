CREATE TABLE `wallet_indexer_snapshots` (
	`chain` text PRIMARY KEY NOT NULL,
	`state_key` text NOT NULL,
	`snapshot` text NOT NULL,
	`leaves` integer NOT NULL,
	`nullifiers` integer NOT NULL,
	`updated_at` text NOT NULL
);
