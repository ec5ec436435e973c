import { createHash } from "node:crypto";
import { type TextTokens, textTokens } from "./text-profile.js";

/**
 * A stable id for a problem in a file, from the file and the normalised tokens of a title
 * (identifiers, code literals, stemmed keywords; sorted): line numbers are left out because
 * lines move between rounds, and casing, plurals and word order do not change it.
 */
export function fingerprint(
  file: string,
  title: string,
  titleTokens: TextTokens = textTokens(title, "title"),
): string {
  const tokens = [...titleTokens.weights.keys()].sort();
  const digest = createHash("sha256")
    .update(`${file}\n${tokens.join(" ")}`)
    .digest("hex");
  return digest.slice(0, 16);
}
