import { describe } from "vitest";
import { runStoreContractLenses } from "./helpers/run-store-contract-lenses.js";
import { runStoreContractPublished } from "./helpers/run-store-contract-published.js";
import { runStoreContractRaces } from "./helpers/run-store-contract-races.js";
import { runStoreContractRounds } from "./helpers/run-store-contract-rounds.js";
import { sqliteStoreBackend } from "./helpers/sqlite-store-backend.js";

// The shared RunStore contract; SQLite's own concerns (files, processes, migrations) have their own tests.
describe("SqliteRunStore", () => {
  runStoreContractRounds(sqliteStoreBackend);
  runStoreContractLenses(sqliteStoreBackend);
  runStoreContractPublished(sqliteStoreBackend);
  runStoreContractRaces(sqliteStoreBackend);
});
