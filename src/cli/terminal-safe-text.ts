/** Escape sequences: CSI (`ESC [ … final`), OSC (`ESC ] … BEL|ST`) and two-byte ESC forms. */
const ESCAPE_SEQUENCE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]?|\x9b[0-?]*[ -/]*[@-~]/g;
/** Other control characters (tab and newline are handled apart) and bidirectional overrides. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text from models, a repository or a config, made harmless for a terminal: escape sequences
 * and control characters removed (a finding must not clear the screen, move the cursor, set the
 * window title or reorder what it shows), tabs as spaces. Newlines are kept unless `oneLine`.
 */
export function terminalSafeText(text: string, options: { oneLine?: boolean } = {}): string {
  const cleaned = text.replace(ESCAPE_SEQUENCE, "").replace(/\r\n?/g, "\n").replace(/\t/g, "  ");
  const safe = cleaned.replace(CONTROL, "");
  return options.oneLine === true ? safe.replace(/\s*\n\s*/g, " ").trim() : safe;
}
