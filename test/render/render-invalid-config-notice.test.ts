import { describe, expect, it } from "vitest";
import { renderInvalidConfigNotice } from "../../src/render/render-invalid-config-notice.js";

describe("renderInvalidConfigNotice", () => {
  it("names the file, every field and its problem, and says the review ran on defaults", () => {
    const body = renderInvalidConfigNotice(
      [
        { path: "models[0]", message: 'unknown model "gpt-9" (this app has: glm-5.2:cloud)' },
        { path: "", message: "the file is not valid YAML" },
      ],
      { source: ".github/gadfly.yml" },
    );
    expect(
      body.startsWith(
        "<!-- gadfly-config-notice -->\n### ⚠️ Gadfly could not use `.github/gadfly.yml`\n",
      ),
    ).toBe(true);
    expect(body).toContain("This review ran on the default settings instead.");
    expect(body).toContain('| `models[0]` | unknown model "gpt-9" (this app has: glm-5.2:cloud) |');
    expect(body).toContain("| _the whole file_ | the file is not valid YAML |");
  });

  it("keeps what a repository wrote in its config from breaking the table or pinging anyone", () => {
    const body = renderInvalidConfigNotice([
      { path: "customLenses[0].id", message: 'invalid value "a|b\n@octocat </details>"' },
    ]);
    expect(body).toContain(
      '| `customLenses[0].id` | invalid value "a\\|b @\u200Doctocat &lt;/details>" |',
    );
  });

  it("counts the problems that do not fit", () => {
    const issues = Array.from({ length: 400 }, (_, i) => ({
      path: `ignore[${i}]`,
      message: "x".repeat(200),
    }));
    const body = renderInvalidConfigNotice(issues, { maxLength: 10_000 });
    expect(body.length).toBeLessThanOrEqual(10_000);
    expect(body).toMatch(/_… and \d+ more problems\._/);
  });
});
