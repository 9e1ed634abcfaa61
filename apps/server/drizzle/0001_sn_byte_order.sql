DROP INDEX "device_state_state_sn";--> statement-breakpoint
DROP INDEX "devices_sn_pattern";--> statement-breakpoint
ALTER TABLE "device_state" ALTER COLUMN "sn" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "devices" ALTER COLUMN "sn" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
CREATE INDEX "device_state_online_state_sn" ON "device_state" USING btree ("state","sn") WHERE "device_state"."online";