import { ConfigError } from "./config/config-error.js";
import { StoreOpenError } from "./run/store/store-open-error.js";
import { serveGadfly } from "./worker/serve-gadfly.js";

/**
 * `npm start`: Gadfly in the role GADFLY_ROLE names (all by default: the
 * Probot server and the round workers). A bad config or an unusable store
 * stops the process at once with one clear line.
 */
serveGadfly({
  env: process.env,
  cwd: process.cwd(),
  signals: process,
  stderr: process.stderr,
}).then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof StoreOpenError) {
      console.error(`gadfly: ${error.message}`);
    } else {
      console.error("gadfly: failed to start:", error instanceof Error ? error.message : error);
    }
    process.exit(1);
  },
);
