import { serveGadfly } from "./boot/index.js";
import { ConfigError } from "./config/index.js";
import { redactSecrets } from "./llm/index.js";
import { collectSecrets } from "./run/index.js";
import { StoreOpenError } from "./run/store/index.js";

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
    // The config is not known here: the secrets of the environment, and credential shapes.
    const redact = (text: string) =>
      redactSecrets(text, collectSecrets({ env: process.env, providers: [] }));
    if (error instanceof ConfigError || error instanceof StoreOpenError) {
      console.error(`gadfly: ${redact(error.message)}`);
    } else {
      const message = error instanceof Error ? error.message : String(error);
      console.error(`gadfly: failed to start: ${redact(message)}`);
    }
    process.exit(1);
  },
);
