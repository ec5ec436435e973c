import { describe, expect, it } from "vitest";
import { terminalSafeText } from "../../src/cli/terminal-safe-text.js";

describe("terminalSafeText", () => {
  it.each([
    ["colour codes", "a\x1b[1;31mb\x1b[0mc", "abc"],
    ["screen clear and cursor moves", "\x1b[2J\x1b[Hx\x1b[10A", "x"],
    ["window title (OSC, BEL or ST)", "\x1b]0;owned\x07a\x1b]2;t\x1b\\b", "ab"],
    ["a hyperlink (OSC 8)", "\x1b]8;;https://evil\x1b\\text\x1b]8;;\x1b\\", "text"],
    ["C1 controls and 8-bit CSI", "a\x9b2Jb\x85c", "abc"],
    ["bidirectional overrides", "safe\u202egnp.exe\u2066", "safegnp.exe"],
    ["a lone ESC and NUL", "a\x1b\x00b", "ab"],
    ["backspace and bell", "ab\x08\x07c", "abc"],
  ])("removes %s", (_name, input, expected) => {
    expect(terminalSafeText(input)).toBe(expected);
  });

  it("keeps newlines (carriage returns become newlines) and turns tabs into spaces", () => {
    expect(terminalSafeText("a\r\nb\rc\td")).toBe("a\nb\nc  d");
  });

  it("joins lines with oneLine", () => {
    expect(terminalSafeText("  a \n\n b  ", { oneLine: true })).toBe("a b");
  });

  it("leaves ordinary text, unicode and emoji alone", () => {
    const text = "naïve — 🔒 Security: `x[0]` > 1";
    expect(terminalSafeText(text)).toBe(text);
  });
});
