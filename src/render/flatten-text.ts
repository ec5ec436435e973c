import { stripInvisibleCharacters } from "./strip-invisible-characters.js";
import { truncateText } from "./truncate-text.js";

/**
 * One line of visible text: invisible and control characters removed, every run
 * of whitespace (line breaks included) made one space, cut to `maxLength` with `…`.
 */
export function flattenText(text: string, maxLength: number): string {
  const flat = stripInvisibleCharacters(text).replace(/\s+/g, " ").trim();
  return truncateText(flat, maxLength).text;
}
