import { describe, expect, it } from "vitest";
import {
  findingKinds,
  kindNames,
  kindsAgree,
  kindsConflict,
  problemKinds,
  problemKindsRuleByRule,
} from "../../src/consensus/problem-kind.js";
import { corpus } from "./corpus/index.js";

const kinds = (text: string) => kindNames(problemKinds(text));

describe("problemKinds", () => {
  it("names the defect however each model words it", () => {
    expect(kinds("SQLi in getOrders")).toEqual(["injection"]);
    expect(kinds("Unparameterized SQL query")).toEqual(["injection"]);
    expect(kinds("Connection leak")).toEqual(["resource-leak"]);
    expect(kinds("Pool connection not released when the query throws")).toEqual(["resource-leak"]);
    expect(kinds("Catastrophic backtracking in filename regex")).toEqual(["redos"]);
    expect(kinds("Regex DoS")).toEqual(["redos"]);
    expect(kinds("Missing null check on count result")).toEqual(["null"]);
  });

  it("tells a leaked secret from a leaked connection", () => {
    expect(kinds("Secret token leaked into info logs")).toEqual(["exposure"]);
    expect(kinds("Leaked database connections on migration failure")).toEqual(["resource-leak"]);
  });

  it("does not read a header name or a promise as a kind", () => {
    expect(kinds("Authorization scheme is never checked")).toEqual([]);
    expect(kinds("Floating promise from issues.createComment")).toEqual([]);
    expect(kinds("Configured concurrency is not enforced")).toEqual([]);
  });

  it("finds nothing in a title that names no defect", () => {
    expect(problemKinds("Column list repeated in INSERT and UPDATE statements")).toBe(0);
  });
});

describe("kindsConflict and kindsAgree", () => {
  const injection = findingKinds({
    title: "SQL injection: `req.query.status` is interpolated into the query",
    body: "Pass it as a bound parameter.",
  });
  const leak = findingKinds({
    title: "Pool connection not released when the query throws",
    body: "`conn.release()` is not in a `finally`.",
  });
  const stackTrace = findingKinds({
    title: "Malformed metadata leaks a stack trace to the caller",
    body: "Nothing catches the SyntaxError from `JSON.parse`.",
  });
  const unhandled = findingKinds({
    title: "Unhandled exception on invalid JSON input",
    body: "The SyntaxError bubbles to the framework, which answers 500 with the stack trace.",
  });
  const vague = findingKinds({ title: "Problem in getOrders", body: "Connection leak." });

  it("conflict when each claims a kind the other never names", () => {
    expect(kindsConflict(injection, leak)).toBe(true);
    expect(kindsConflict(leak, injection)).toBe(true);
  });

  it("do not conflict when one's claim is named in the other's text (two lenses, one defect)", () => {
    expect(kindsConflict(stackTrace, unhandled)).toBe(false);
    expect(kindsConflict(unhandled, stackTrace)).toBe(false);
  });

  it("never conflict with a finding whose title claims no kind", () => {
    expect(kindsConflict(vague, injection)).toBe(false);
    expect(kindsAgree(vague, leak)).toBe(false);
  });

  it("agree when both titles claim the same kind", () => {
    expect(kindsAgree(injection, injection)).toBe(true);
    expect(kindsAgree(injection, leak)).toBe(false);
  });
});

describe("problemKinds in one pass", () => {
  it("finds exactly the kinds that testing each rule on its own finds, over the corpus", () => {
    for (const finding of corpus.flatMap((scenario) => scenario.findings)) {
      for (const text of [finding.title, finding.body]) {
        expect(problemKinds(text), text).toBe(problemKindsRuleByRule(text));
      }
    }
  });
});
