CREATE TABLE "hosted_mail" (
	"id" uuid PRIMARY KEY NOT NULL,
	"entity_id" uuid NOT NULL,
	"dedupe_key" text NOT NULL,
	"kind" text NOT NULL,
	"request_id" text NOT NULL,
	"signer_id" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"last_error" text,
	"message_id" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "hosted_mail" ADD CONSTRAINT "hosted_mail_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "hosted_mail_dedupe_idx" ON "hosted_mail" USING btree ("entity_id","dedupe_key");--> statement-breakpoint
CREATE INDEX "hosted_mail_queue_idx" ON "hosted_mail" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "rows_signer_token_idx" ON "rows" USING btree (("data" ->> 'token_hash')) WHERE "rows"."table_name" = 'signers';--> statement-breakpoint
CREATE INDEX "rows_request_idx" ON "rows" USING btree ("entity_id","table_name",("data" ->> 'request_id')) WHERE "rows"."table_name" in ('signers', 'signature_fields', 'signature_audit');