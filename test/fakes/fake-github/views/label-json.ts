import { createHash } from "node:crypto";
import type { RepositorySnapshot } from "../types.js";

/** A label as GitHub shows it on a pull request, an issue and a `labeled` delivery. */
export function labelJson(repository: RepositorySnapshot, name: string): Record<string, unknown> {
  // Stable per repository and name, as a label's id is.
  const id = createHash("sha256")
    .update(`${repository.fullName}\0${name}`)
    .digest()
    .readUInt32BE(0);
  return {
    id,
    node_id: Buffer.from(`05:Label${id}`).toString("base64"),
    url: `${repository.urls.api}/repos/${repository.fullName}/labels/${encodeURIComponent(name)}`,
    name,
    color: "ededed",
    default: false,
    description: null,
  };
}
