import type { AgentIsolation } from "./agent-isolation.js";

/** The start-up log line for the isolation in force: info at bwrap, a warning below it. */
export function isolationNotice(isolation: AgentIsolation): {
  severity: "info" | "warn";
  message: string;
} {
  const because = isolation.weakerBecause === null ? "" : ` (${isolation.weakerBecause})`;
  switch (isolation.level) {
    case "bwrap":
      return { severity: "info", message: "agent CLIs isolated with bubblewrap" };
    case "user":
      return {
        severity: "warn",
        message: `agent CLIs isolated only by running as uid ${isolation.uid}, gid ${isolation.gid}${because}; command providers skip pull requests from forks unless allowForks is set`,
      };
    case "none":
      return {
        severity: "warn",
        message: `agent CLIs are not isolated from the host${because}: they run as Gadfly's own user, protected only by a scrubbed copy, a fresh HOME and the environment allow-list; command providers skip pull requests from forks unless allowForks is set`,
      };
  }
}
