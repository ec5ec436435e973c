import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";

export interface BodyValidation {
  valid: boolean;
  errors: ErrorObject[];
}

interface OpenApiDescription {
  paths: Record<string, Record<string, { requestBody?: unknown }>>;
}

interface Validators {
  spec: OpenApiDescription;
  ajv: Ajv;
  compiled: Map<string, ValidateFunction | null>;
}

// Loading and registering GitHub's 13 MB description costs a few hundred
// milliseconds: done once per process, on first use, and shared by every fake.
let validators: Validators | undefined;

function loadValidators(): Validators {
  if (validators !== undefined) return validators;
  const require = createRequire(import.meta.url);
  // Only the one description: the package's main entry loads every variant (385 MB).
  const specPath = require.resolve("@octokit/openapi/generated/api.github.com.json");
  const spec = JSON.parse(readFileSync(specPath, "utf8")) as OpenApiDescription;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormatsModule.default(ajv);
  ajv.addSchema(spec, "github");
  validators = { spec, ajv, compiled: new Map() };
  return validators;
}

/**
 * Checks a JSON request body against the operation's request schema in
 * GitHub's published OpenAPI description. `pathTemplate` is the description's
 * path, e.g. `/repos/{owner}/{repo}/pulls/{pull_number}/reviews`. Operations
 * without a JSON request body accept anything.
 */
export function validateRequestBody(
  method: string,
  pathTemplate: string,
  body: unknown,
): BodyValidation {
  const { spec, ajv, compiled } = loadValidators();
  const operation = method.toLowerCase();
  const key = `${operation} ${pathTemplate}`;
  let validate = compiled.get(key);
  if (validate === undefined) {
    const hasBody = spec.paths[pathTemplate]?.[operation]?.requestBody !== undefined;
    validate = hasBody
      ? ajv.compile({
          $ref: `github#/paths/${escapePointer(pathTemplate)}/${operation}/requestBody/content/application~1json/schema`,
        })
      : null;
    compiled.set(key, validate);
  }
  if (validate === null) return { valid: true, errors: [] };
  const valid = validate(body);
  return { valid, errors: valid ? [] : [...(validate.errors ?? [])] };
}

function escapePointer(segment: string): string {
  return segment.replaceAll("~", "~0").replaceAll("/", "~1");
}
