import type { Finding } from "./finding.js";
import { type FindingKinds, findingKinds } from "./problem-kind.js";
import {
  type ChunkMemo,
  combineTextTokens,
  type TextProfile,
  type TextTokens,
  textTokens,
} from "./text-profile.js";

interface ReadText {
  tokens: TextTokens;
  /** The kinds the text names (a title's are its claim). */
  kinds: number;
}

/**
 * What clustering reads from findings' texts, each distinct title and body read once: models
 * and lenses repeat titles and boilerplate bodies, and reading a text (tokens, references,
 * kinds) is most of clustering's cost. Lives for one clustering call, so it holds no more than
 * the findings do; the results equal `textProfile` and `findingKinds` of each finding.
 */
export class FindingTextCache {
  private readonly titles = new Map<string, ReadText>();
  private readonly bodies = new Map<string, ReadText>();
  /** Title → body → the two combined. */
  private readonly profiles = new Map<string, Map<string, TextProfile>>();
  /** Distinct texts still share most of their words: each chunk is read once too. */
  private readonly chunks: ChunkMemo = new Map();

  profile(finding: Finding): TextProfile {
    // A model that reports one finding through several lenses repeats the whole text: the
    // profile is combined once per title and body, and shared (nothing writes to a profile).
    let byBody = this.profiles.get(finding.title);
    if (byBody === undefined) {
      byBody = new Map();
      this.profiles.set(finding.title, byBody);
    }
    let profile = byBody.get(finding.body);
    if (profile === undefined) {
      profile = combineTextTokens(this.title(finding.title).tokens, this.body(finding.body).tokens);
      byBody.set(finding.body, profile);
    }
    return profile;
  }

  kinds(finding: Finding): FindingKinds {
    const claim = this.title(finding.title).kinds;
    return { claim, all: claim | this.body(finding.body).kinds };
  }

  titleTokens(title: string): TextTokens {
    return this.title(title).tokens;
  }

  private title(text: string): ReadText {
    let read = this.titles.get(text);
    if (read === undefined) {
      read = {
        tokens: textTokens(text, "title", this.chunks),
        kinds: findingKinds({ title: text, body: "" }).claim,
      };
      this.titles.set(text, read);
    }
    return read;
  }

  private body(text: string): ReadText {
    let read = this.bodies.get(text);
    if (read === undefined) {
      read = {
        tokens: textTokens(text, "body", this.chunks),
        kinds: findingKinds({ title: "", body: text }).all,
      };
      this.bodies.set(text, read);
    }
    return read;
  }
}
