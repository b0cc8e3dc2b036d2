CREATE TABLE "invitations" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"entity_id" uuid NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"account_id" uuid,
	"created_by" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_entity_id_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."entities"("id") ON DELETE cascade ON UPDATE no action;