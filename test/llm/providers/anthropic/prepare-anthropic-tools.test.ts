import { describe, expect, it } from "vitest";
import { prepareAnthropicTools } from "../../../../src/llm/providers/anthropic/prepare-anthropic-tools.js";

describe("prepareAnthropicTools", () => {
  it("leaves the field out when there are no tools", () => {
    expect(prepareAnthropicTools(undefined)).toBeUndefined();
    expect(prepareAnthropicTools([])).toBeUndefined();
  });

  it("gives each tool its JSON Schema as input_schema, an object schema", () => {
    const parameters = {
      type: "object",
      properties: { path: { type: "string" } },
      required: ["path"],
    };
    expect(
      prepareAnthropicTools([{ name: "read_file", description: "Read a file", parameters }]),
    ).toEqual([{ name: "read_file", description: "Read a file", input_schema: parameters }]);
    expect(
      prepareAnthropicTools([{ name: "list_files", description: "List", parameters: {} }]),
    ).toEqual([{ name: "list_files", description: "List", input_schema: { type: "object" } }]);
  });
});
