import { afterAll, beforeAll, describe } from "vitest";
import {
  postgresUnavailableReason,
  startTestPostgres,
  type TestPostgres,
} from "../../helpers/postgres-server.js";
import { postgresStoreBackend } from "./helpers/postgres-store-backend.js";
import { runStoreContractLenses } from "./helpers/run-store-contract-lenses.js";
import { runStoreContractPublished } from "./helpers/run-store-contract-published.js";
import { runStoreContractRaces } from "./helpers/run-store-contract-races.js";
import { runStoreContractRounds } from "./helpers/run-store-contract-rounds.js";

let server: TestPostgres | undefined;
let databaseUrl = "";

describe.skipIf(postgresUnavailableReason() !== null)("PostgresRunStore", () => {
  beforeAll(async () => {
    server = await startTestPostgres();
    databaseUrl = await server.createDatabase();
  });
  afterAll(async () => {
    await server?.stop();
  });

  const backend = postgresStoreBackend(() => databaseUrl);
  runStoreContractRounds(backend);
  runStoreContractLenses(backend);
  runStoreContractPublished(backend);
  runStoreContractRaces(backend);
});
