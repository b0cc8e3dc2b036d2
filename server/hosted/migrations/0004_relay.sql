CREATE TABLE "relay_jobs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"chain" text NOT NULL,
	"nullifier_key" text NOT NULL,
	"status" text NOT NULL,
	"token" text NOT NULL,
	"fee" text NOT NULL,
	"user_op_hash" text,
	"tx_hash" text,
	"gas_cost" text,
	"error" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "relay_jobs_nullifiers_idx" ON "relay_jobs" USING btree ("chain","nullifier_key");--> statement-breakpoint
CREATE INDEX "relay_jobs_created_idx" ON "relay_jobs" USING btree ("created_at");