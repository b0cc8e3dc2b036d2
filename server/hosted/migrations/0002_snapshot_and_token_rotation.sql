ALTER TABLE "devices" ADD COLUMN "previous_token_hash" text;--> statement-breakpoint
ALTER TABLE "entities" ADD COLUMN "compacted_through" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "rows_seq_idx" ON "rows" USING btree ("entity_id","seq");--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_previous_token_hash_unique" UNIQUE("previous_token_hash");