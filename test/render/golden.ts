import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { expect } from "vitest";

const GOLDEN_DIRECTORY = new URL("./golden/", import.meta.url);

/**
 * Compares `actual` with test/render/golden/<name>.md. With UPDATE_GOLDEN=1 the
 * file is (re)written instead; review the diff by eye before committing it.
 */
export function expectGolden(name: string, actual: string, environment = process.env): void {
  const file = new URL(`${name}.md`, GOLDEN_DIRECTORY);
  if (environment.UPDATE_GOLDEN === "1") {
    mkdirSync(GOLDEN_DIRECTORY, { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  if (!existsSync(file)) {
    throw new Error(`missing golden ${name}.md: run UPDATE_GOLDEN=1 npx vitest run test/render`);
  }
  expect(actual, `golden ${name}.md differs (UPDATE_GOLDEN=1 to accept)`).toBe(
    readFileSync(file, "utf8"),
  );
}
