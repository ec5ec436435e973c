import { compileSafeGlob } from "../config/index.js";

/** Rules read of one `.gitattributes`: a repository's file past this is not read further. */
const MAX_RULES = 500;
/** Matching steps over every path and rule of one change set (see ignoreMatcher). */
const MATCH_STEPS = 5_000_000;

const ATTRIBUTE = /^([-!]?)linguist-(?:generated|vendored)(?:=(true|false))?$/;

interface Rule {
  glob: Extract<ReturnType<typeof compileSafeGlob>, { ok: true }>;
  generated: boolean;
}

/**
 * Which paths a `.gitattributes` (the base's: the author must not decide what goes unreviewed)
 * marks `linguist-generated` or `linguist-vendored`; the last rule that matches a path decides,
 * as in git (`-linguist-generated` or `=false` takes it back). Patterns outside the safe glob
 * subset are skipped, so they mark nothing; past the matching budget nothing more is marked:
 * both leave files reviewed, never hidden.
 */
export function generatedAttributes(text: string | null): (path: string) => boolean {
  const rules = text === null ? [] : parseRules(text);
  const budget = { steps: MATCH_STEPS };
  return (path) => {
    let generated = false;
    for (const rule of rules) {
      const matched = rule.glob.matchesWithin(path, budget);
      if (matched === null) return false;
      if (matched) generated = rule.generated;
    }
    return generated;
  };
}

function parseRules(text: string): Rule[] {
  const rules: Rule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const [pattern = "", ...attributes] = line.split(/\s+/);
    for (const attribute of attributes) {
      const match = ATTRIBUTE.exec(attribute);
      if (match === null) continue;
      const glob = compileSafeGlob(toGlob(pattern));
      if (!glob.ok) continue;
      rules.push({ glob, generated: match[1] === "" && match[2] !== "false" });
      if (rules.length >= MAX_RULES) return rules;
    }
  }
  return rules;
}

/** A gitattributes pattern as a glob from the root: one without a slash matches at any depth. */
function toGlob(pattern: string): string {
  if (pattern.startsWith("/")) return pattern.slice(1);
  return pattern.includes("/") ? pattern : `**/${pattern}`;
}
