DROP INDEX "devices_owner_sn";--> statement-breakpoint
CREATE INDEX "devices_owner_lower_sn" ON "devices" USING btree (lower("owner"),"sn");