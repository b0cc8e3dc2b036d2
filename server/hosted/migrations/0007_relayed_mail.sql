CREATE TABLE "relayed_mail" (
	"id" uuid PRIMARY KEY NOT NULL,
	"entity_id" uuid NOT NULL,
	"device_id" uuid NOT NULL,
	"mail_id" uuid NOT NULL,
	"purpose_key" text,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"body" jsonb,
	"ref" jsonb NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"last_error" text,
	"message_id" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "relayed_mail" ADD CONSTRAINT "relayed_mail_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "relayed_mail_mail_idx" ON "relayed_mail" USING btree ("entity_id","mail_id");--> statement-breakpoint
CREATE UNIQUE INDEX "relayed_mail_purpose_idx" ON "relayed_mail" USING btree ("entity_id","purpose_key");--> statement-breakpoint
CREATE INDEX "relayed_mail_queue_idx" ON "relayed_mail" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "relayed_mail_quota_idx" ON "relayed_mail" USING btree ("entity_id","created_at");