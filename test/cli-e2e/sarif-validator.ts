import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Ajv, type ErrorObject } from "ajv";
import addFormatsModule from "ajv-formats";

const require = createRequire(import.meta.url);

export interface SarifValidation {
  valid: boolean;
  errors: ErrorObject[];
}

/** A validator for the official SARIF 2.1.0 schema, shipped in @microsoft/jest-sarif. */
export function sarifValidator(): (value: unknown) => SarifValidation {
  const path = require.resolve("@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json");
  const schema = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  // Written for draft-04: its `$schema` and top-level `id` are not draft-07 keywords that
  // matter here. One of its patterns is not valid in unicode mode, hence unicodeRegExp: false.
  delete schema.$schema;
  delete schema.id;
  const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
  addFormatsModule.default(ajv);
  const validate = ajv.compile(schema);
  return (value) => {
    const valid = validate(value);
    return { valid, errors: validate.errors ?? [] };
  };
}
