import { describe } from "vitest";
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
import { sqliteStoreBackend } from "./helpers/sqlite-store-backend.js";

// The shared RunStore contract; SQLite's own concerns (files, processes, migrations) have their own tests.
describe("SqliteRunStore", () => {
  runStoreContractRounds(sqliteStoreBackend);
  runStoreContractTransitions(sqliteStoreBackend);
  runStoreContractScoreboard(sqliteStoreBackend);
  runStoreContractLenses(sqliteStoreBackend);
  runStoreContractPublished(sqliteStoreBackend);
  runStoreContractRaces(sqliteStoreBackend);
  runStoreContractChallenges(sqliteStoreBackend);
  runStoreContractFeedback(sqliteStoreBackend);
  runStoreContractPublishSteps(sqliteStoreBackend);
  runStoreContractSpend(sqliteStoreBackend);
  runStoreContractThreadAnswers(sqliteStoreBackend);
  runStoreContractReaders(sqliteStoreBackend);
});
