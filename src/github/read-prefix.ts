import type { GitHubClient, RepoRef } from "./github-client.js";

/**
 * The first `maxBytes` of a file at `ref`, streamed raw (a 100 MB file costs no more than
 * `maxBytes`), or null when the path is not a file (GitHub then answers with JSON: a
 * directory's listing, a submodule, a link out of the tree).
 */
export async function readPrefix(
  octokit: GitHubClient,
  repo: RepoRef,
  ref: string,
  path: string,
  maxBytes: number,
  signal: AbortSignal | undefined,
): Promise<Uint8Array | null> {
  const response = await octokit.request("GET /repos/{owner}/{repo}/contents/{path}", {
    ...repo,
    path,
    ref,
    mediaType: { format: "raw" },
    request: {
      parseSuccessResponseBody: false,
      ...(signal === undefined ? {} : { signal }),
    },
  });
  const stream = response.data as unknown as ReadableStream<Uint8Array> | null;
  const type = String(response.headers["content-type"] ?? "");
  if (/application\/json/i.test(type)) {
    await stream?.cancel().catch(() => undefined);
    return null;
  }
  if (stream === null) return new Uint8Array();
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (total < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      total += value.length;
    }
  } finally {
    // Past the bound, the rest of the file is never downloaded.
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, maxBytes);
}
