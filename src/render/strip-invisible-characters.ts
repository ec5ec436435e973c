/** Bidirectional controls: they can reorder what a reader sees ("trojan source"). */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
/** Zero-width and invisible formatting characters: they can hide or split words. */
const ZERO_WIDTH = /[\u00AD\u180E\u200B-\u200D\u2060-\u2064\uFEFF]/g;
/** C0 and C1 control characters other than tab and line feed. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

export interface StripOptions {
  /** Also remove zero-width characters (titles); lens text keeps them for emoji sequences. */
  zeroWidth?: boolean;
}

/**
 * Removes characters a model could use to make published text read differently
 * from what it says. Carriage returns become line feeds first so no line is lost.
 */
export function stripInvisibleCharacters(text: string, options: StripOptions = {}): string {
  let result = text.replace(/\r\n?/g, "\n").replace(CONTROLS, "").replace(BIDI_CONTROLS, "");
  if (options.zeroWidth ?? true) result = result.replace(ZERO_WIDTH, "");
  return result;
}
