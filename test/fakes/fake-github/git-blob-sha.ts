import { createHash } from "node:crypto";

/** The SHA git gives a blob, so contents and file SHAs look real. */
export function gitBlobSha(content: Buffer): string {
  return createHash("sha1").update(`blob ${content.length}\0`).update(content).digest("hex");
}
