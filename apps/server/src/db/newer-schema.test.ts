import { describe, expect, it } from "vitest";
import { testDatabases, useTestServer } from "@tracker/testing";
import { migrateLatest } from "./connect.js";
import { migrationNames } from "./migrations/index.js";
import { NewerSchemaError, unknownAppliedMigrations } from "./newer-schema.js";

/** A server of an older build meets a database migrated by a newer one (a rolling upgrade's restart). */
describe.each(testDatabases())("a database migrated by a newer build, on %s", (kind) => {
  const suite = useTestServer(kind);

  it("is refused with the migrations this build does not know, and what to do", async () => {
    const knex = suite.server.database.knex;
    expect(await unknownAppliedMigrations(knex)).toEqual([]);
    const [{ max }] = await knex("knex_migrations").max("batch as max");
    await knex("knex_migrations").insert([
      { name: "9998_from_the_future", batch: max + 1, migration_time: new Date() },
      { name: "9999_further_still", batch: max + 1, migration_time: new Date() },
    ]);
    try {
      expect(await unknownAppliedMigrations(knex)).toEqual(["9998_from_the_future", "9999_further_still"]);
      const refused = migrateLatest(knex);
      await expect(refused).rejects.toBeInstanceOf(NewerSchemaError);
      await expect(refused).rejects.toThrow(
        `the database was migrated by a newer tracker: migrations 9998_from_the_future, 9999_further_still are not known to this build (its last is ${migrationNames.at(-1)}).`,
      );
    } finally {
      await knex("knex_migrations").whereIn("name", ["9998_from_the_future", "9999_further_still"]).delete();
    }
    // Nothing left to apply.
    await expect(migrateLatest(knex)).resolves.toEqual([]);
  });
});
