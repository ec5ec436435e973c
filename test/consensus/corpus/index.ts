import { adjacentGoCache } from "./adjacent-go-cache.js";
import { adjacentJavaService } from "./adjacent-java-service.js";
import { adjacentNodeHandler } from "./adjacent-node-handler.js";
import { adjacentPythonSecrets } from "./adjacent-python-secrets.js";
import type { CorpusScenario } from "./corpus-scenario.js";
import { crossLensUpload } from "./cross-lens-upload.js";
import { crossLensWorker } from "./cross-lens-worker.js";
import { diffParserDuplicates } from "./diff-parser-duplicates.js";
import { genericTitles } from "./generic-titles.js";
import { goHttpClient } from "./go-http-client.js";
import { heldOutCParser } from "./held-out-c-parser.js";
import { heldOutDeployCli } from "./held-out-deploy-cli.js";
import { heldOutRustCache } from "./held-out-rust-cache.js";
import { linesApart } from "./lines-apart.js";
import { oneModelTwoLenses } from "./one-model-two-lenses.js";
import { orchestrator } from "./orchestrator.js";
import { pathConfinement } from "./path-confinement.js";
import { reactComponent } from "./react-component.js";
import { referenceFinalize } from "./reference-finalize.js";
import { sameLineNeighbours } from "./same-line-neighbours.js";
import { sameTitleOtherFiles } from "./same-title-other-files.js";
import { webhookParaphrases } from "./webhook-paraphrases.js";

export const corpus: CorpusScenario[] = [
  referenceFinalize,
  webhookParaphrases,
  sameLineNeighbours,
  oneModelTwoLenses,
  linesApart,
  sameTitleOtherFiles,
  genericTitles,
  goHttpClient,
  reactComponent,
  diffParserDuplicates,
  pathConfinement,
  orchestrator,
  adjacentNodeHandler,
  adjacentPythonSecrets,
  adjacentGoCache,
  adjacentJavaService,
  crossLensUpload,
  crossLensWorker,
  heldOutDeployCli,
  heldOutRustCache,
  heldOutCParser,
];
