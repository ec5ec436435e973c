import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TSX_LOADER = pathToFileURL(join(ROOT, "node_modules/tsx/dist/loader.mjs")).href;

/**
 * Runs a container health check's `CMD ["node", …]` with this process's node, the way
 * Docker would inside the image: with PORT set and nothing else but PATH. A `dist/X.js` the
 * image runs is run from its source, `src/X.ts`. Its exit code.
 */
export function healthcheckExitCode(
  command: readonly string[],
  port: number,
): Promise<number | null> {
  const args = command
    .slice(1)
    .map((arg) =>
      /^dist\/.*\.js$/.test(arg)
        ? join(ROOT, arg.replace(/^dist\//, "src/").replace(/\.js$/, ".ts"))
        : arg,
    );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", TSX_LOADER, ...args], {
      env: { PATH: process.env.PATH ?? "", PORT: String(port) },
      stdio: "ignore",
    });
    child.on("error", reject);
    child.on("close", resolve);
  });
}
