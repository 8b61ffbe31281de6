CREATE TABLE "fleet_versions" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
