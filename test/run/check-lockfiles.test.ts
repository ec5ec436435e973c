import { describe, expect, it } from "vitest";
import { parseUnifiedDiff } from "../../src/diff/parse-unified-diff.js";
import { checkLockfiles } from "../../src/run/check-lockfiles.js";

const lockDiff = `diff --git a/package-lock.json b/package-lock.json
index 1111111..2222222 100644
--- a/package-lock.json
+++ b/package-lock.json
@@ -10,6 +10,11 @@
     "node_modules/left-pad": {
       "version": "1.3.0",
-      "resolved": "https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz",
+      "resolved": "https://evil.example.com/left-pad/-/left-pad-1.3.0.tgz",
       "integrity": "sha512-abc"
     },
+    "node_modules/sneaky": {
+      "version": "1.0.0",
+      "resolved": "https://registry.npmjs.org/sneaky/-/sneaky-1.0.0.tgz",
+      "hasInstallScript": true
+    },
     "node_modules/other": {
`;

describe("checkLockfiles", () => {
  it("lists a resolved URL moved to another host and an added install script", () => {
    const check = checkLockfiles(parseUnifiedDiff(lockDiff));
    expect(check).toEqual({
      checked: ["package-lock.json"],
      unchecked: [],
      notes: [
        { path: "package-lock.json", line: 12, kind: "host", detail: "evil.example.com" },
        {
          path: "package-lock.json",
          line: 18,
          kind: "install-script",
          detail: "node_modules/sneaky",
        },
      ],
      notesOmitted: 0,
    });
  });

  it("says nothing of the default registry, and nothing at all without a lockfile", () => {
    const quiet = lockDiff
      .replace("https://evil.example.com/", "https://registry.npmjs.org/")
      .replace('+      "hasInstallScript": true\n', '+      "license": "MIT"\n');
    expect(checkLockfiles(parseUnifiedDiff(quiet))?.notes).toEqual([]);
    const source = lockDiff.replaceAll("package-lock.json", "src/data.json");
    expect(checkLockfiles(parseUnifiedDiff(source))).toBeNull();
  });
});
