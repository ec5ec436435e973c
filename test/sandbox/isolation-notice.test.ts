import { describe, expect, it } from "vitest";
import { type AgentIsolation, isolationNotice } from "../../src/sandbox/index.js";

const base: AgentIsolation = {
  level: "bwrap",
  uid: 65534,
  gid: 65534,
  bwrap: "bwrap",
  weakerBecause: null,
};

describe("isolationNotice", () => {
  it("is an info line at the bwrap level", () => {
    expect(isolationNotice(base)).toEqual({
      severity: "info",
      message: "agent CLIs isolated with bubblewrap",
    });
  });

  it("warns below it, saying why and what it means for forks", () => {
    const user = isolationNotice({
      ...base,
      level: "user",
      weakerBecause: "bubblewrap does not work here (bwrap is not installed)",
    });
    expect(user.severity).toBe("warn");
    expect(user.message).toBe(
      "agent CLIs isolated only by running as uid 65534, gid 65534 (bubblewrap does not work here (bwrap is not installed)); command providers skip pull requests from forks unless allowForks is set",
    );
    const none = isolationNotice({
      ...base,
      level: "none",
      weakerBecause: "sandbox.isolation is none",
    });
    expect(none.severity).toBe("warn");
    expect(none.message).toMatch(
      /^agent CLIs are not isolated from the host \(sandbox\.isolation is none\)/,
    );
  });
});
