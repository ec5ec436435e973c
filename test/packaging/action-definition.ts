import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";

export interface ActionStep {
  name: string;
  id?: string;
  if?: string;
  uses?: string;
  shell?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string | number | boolean>;
}

export interface ActionDefinition {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

/** `action.yml` at the repository root, parsed as YAML (no schema check: the tests do that). */
export function actionDefinition(root: string): ActionDefinition {
  return parse(readFileSync(join(root, "action.yml"), "utf8")) as ActionDefinition;
}
