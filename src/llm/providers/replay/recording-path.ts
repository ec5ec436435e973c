import { join } from "node:path";

/** Where the recording of one (model, lens) lives: `<dir>/<model id>/<lens>.json`, both sanitised. */
export function recordingPath(dir: string, modelId: string, lens: string): string {
  return join(dir, pathSegment(modelId), `${pathSegment(lens)}.json`);
}

// Model ids such as "glm-5.2:cloud" or "claude-code/opus" hold characters that are not
// portable in file names (or are separators); each becomes "_". A segment made only of
// dots, or starting with one, is prefixed so it can never mean "." or "..".
function pathSegment(value: string): string {
  const safe = value.replace(/[^A-Za-z0-9._-]/g, "_");
  return safe === "" || safe.startsWith(".") ? `_${safe}` : safe;
}
