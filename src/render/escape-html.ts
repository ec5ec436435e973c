import { flattenText } from "./flatten-text.js";
import { neutralizeMentions } from "./neutralize-mentions.js";

/** Untrusted text inside raw HTML (a `<summary>`): markdown is not parsed there, entities are. */
export function escapeHtml(text: string, maxLength = 200): string {
  return neutralizeMentions(flattenText(text, maxLength))
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}
