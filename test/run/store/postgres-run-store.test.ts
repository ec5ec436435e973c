import { afterAll, beforeAll, describe } from "vitest";
import {
  postgresUnavailableReason,
  startTestPostgres,
  type TestPostgres,
} from "../../helpers/postgres-server.js";
import { runStoreContractChallenges } from "./contract/challenges.js";
import { runStoreContractFeedback } from "./contract/feedback.js";
import { runStoreContractLenses } from "./contract/lenses.js";
import { runStoreContractPublishSteps } from "./contract/publish-steps.js";
import { runStoreContractPublished } from "./contract/published.js";
import { runStoreContractRaces } from "./contract/races.js";
import { runStoreContractReaders } from "./contract/readers.js";
import { runStoreContractRounds } from "./contract/rounds.js";
import { runStoreContractScoreboard } from "./contract/scoreboard.js";
import { runStoreContractSpend } from "./contract/spend.js";
import { runStoreContractThreadAnswers } from "./contract/thread-answers.js";
import { runStoreContractTransitions } from "./contract/transitions.js";
import { postgresStoreBackend } from "./helpers/postgres-store-backend.js";

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
  runStoreContractTransitions(backend);
  runStoreContractScoreboard(backend);
  runStoreContractLenses(backend);
  runStoreContractPublished(backend);
  runStoreContractRaces(backend);
  runStoreContractChallenges(backend);
  runStoreContractFeedback(backend);
  runStoreContractPublishSteps(backend);
  runStoreContractSpend(backend);
  runStoreContractThreadAnswers(backend);
  runStoreContractReaders(backend);
});
