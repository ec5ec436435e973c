/**
 * Checks a rendered body starts with its marker line: a restyled template that
 * dropped it would make us post a new comment on every round instead of editing.
 */
export function requireMarker(body: string, marker: string, template: string): string {
  if (!body.startsWith(`${marker}\n`) && body !== marker) {
    throw new Error(`template ${template}.hbs must start with the line ${marker}`);
  }
  return body;
}
