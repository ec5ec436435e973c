import { defaultTemplateEngine, type TemplateEngine } from "./template-engine.js";

/** The dashboard's sign-in form (POSTed to `action`); `failed` after a wrong token. */
export function renderDashboardLogin(
  input: { action: string; failed: boolean },
  engine: TemplateEngine = defaultTemplateEngine(),
): string {
  return engine.render("dashboard-login", input);
}
