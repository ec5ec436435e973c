import type { LensFinding } from "../../src/findings/schema.js";

/** A 20-line module whose head turns line 10 into string-built SQL: one PR, one real finding. */
export const SQL_INJECTION_REPO = { owner: "octo-org", repo: "lookup" };

export const sqlInjectionBase = Array.from(
  { length: 20 },
  (_, index) => `export const value${index + 1} = ${index + 1};`,
);

export const sqlInjectionHead = sqlInjectionBase.map((line, index) =>
  index === 9
    ? 'export const query = (name) => "SELECT * FROM users WHERE name = \'" + name + "\'";'
    : line,
);

/** What a reviewer that sees it reports, at the line it is on. */
export const sqlInjectionFinding: LensFinding = {
  file: "src/db.js",
  line: 10,
  endLine: 10,
  severity: "high",
  confidence: "high",
  title: "SQL injection: `query` concatenates `name` into the SQL text",
  body: "Use a parameterised query instead of concatenating `name`.",
};
