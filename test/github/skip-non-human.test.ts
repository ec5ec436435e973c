import { describe, expect, it } from "vitest";
import { skipNonHuman } from "../../src/github/skip-non-human.js";

describe("skipNonHuman", () => {
  it("skips a missing actor, us (any case) and other bots, in each event's words", () => {
    expect(skipNonHuman(null, "gadfly[bot]", "comment")).toEqual({
      skip: "comment without an author",
    });
    expect(skipNonHuman(undefined, "gadfly[bot]", "resolution")).toEqual({ skip: "no sender" });
    const us = { login: "Gadfly[bot]", type: "Bot" };
    expect(skipNonHuman(us, "gadfly[bot]", "comment")).toEqual({ skip: "our own comment" });
    expect(skipNonHuman(us, "gadfly[bot]", "resolution")).toEqual({ skip: "our own resolution" });
    const renovate = { login: "renovate[bot]", type: "Bot" };
    expect(skipNonHuman(renovate, "gadfly[bot]", "comment")).toEqual({ skip: "comment by a bot" });
    expect(skipNonHuman(renovate, "gadfly[bot]", "resolution")).toEqual({
      skip: "resolved by a bot",
    });
  });

  it("lets a person through, the actor unchanged (a type left out counts as a person)", () => {
    const person = { login: "octocat", type: "User", id: 1 };
    expect(skipNonHuman(person, "gadfly[bot]", "comment")).toEqual({ actor: person });
    expect(skipNonHuman({ login: "hubot" }, "gadfly[bot]", "resolution")).toEqual({
      actor: { login: "hubot" },
    });
  });
});
