/**
 * An http(s) URL made safe for a markdown link destination, or null. Links only
 * ever come from GitHub's API, but a stored value is checked rather than trusted.
 */
export function safeUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return null;
  // URL serialisation percent-encodes spaces, quotes and angle brackets; parentheses
  // are legal in URLs but would end a markdown link early.
  return parsed.href.replaceAll("(", "%28").replaceAll(")", "%29").replaceAll("`", "%60");
}
