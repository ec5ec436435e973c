import { spawn } from "node:child_process";

/**
 * Runs a container health check's `CMD ["node", …]` with this process's node, the way
 * Docker would inside the image: with PORT set and nothing else but PATH. Its exit code.
 */
export function healthcheckExitCode(
  command: readonly string[],
  port: number,
): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, command.slice(1), {
      env: { PATH: process.env.PATH ?? "", PORT: String(port) },
      stdio: "ignore",
    });
    child.on("error", reject);
    child.on("close", resolve);
  });
}
