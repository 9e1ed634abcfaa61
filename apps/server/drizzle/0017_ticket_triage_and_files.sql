CREATE TABLE "ticket_file_deletions" (
	"path" text PRIMARY KEY NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "tickets_status_priority_activity" ON "tickets" USING btree ("status","priority","last_activity_at","id");--> statement-breakpoint
CREATE FUNCTION ticket_attachment_files_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ticket_file_deletions (path)
  SELECT p FROM unnest(array[OLD.file_path, OLD.thumb_path]) AS p WHERE p IS NOT NULL
  ON CONFLICT DO NOTHING;
  RETURN OLD;
END $$;
--> statement-breakpoint
CREATE TRIGGER ticket_attachment_files_gone AFTER DELETE ON ticket_attachments FOR EACH ROW EXECUTE FUNCTION ticket_attachment_files_gone();
