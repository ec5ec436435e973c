import type { Route } from "./route.js";

// Parameters that may hold slashes (file paths, branch names).
const greedyParameters = new Set(["path", "ref"]);

interface CompiledRoute {
  route: Route;
  expression: RegExp;
  names: string[];
}

const compiledRoutes = new WeakMap<readonly Route[], CompiledRoute[]>();

/** Finds the route for a method and path, with its decoded path parameters. */
export function matchRoute(
  routes: readonly Route[],
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } | undefined {
  let compiled = compiledRoutes.get(routes);
  if (compiled === undefined) {
    compiled = routes.map(compile);
    compiledRoutes.set(routes, compiled);
  }
  for (const { route, expression, names } of compiled) {
    if (route.method !== method) continue;
    const match = expression.exec(path);
    if (match === null) continue;
    const params: Record<string, string> = {};
    names.forEach((name, index) => {
      params[name] = decodeURIComponent(match[index + 1] ?? "");
    });
    return { route, params };
  }
  return undefined;
}

function compile(route: Route): CompiledRoute {
  const names: string[] = [];
  const source = route.path
    .split(/(\{[a-z_]+\})/)
    .map((part) => {
      const name = /^\{([a-z_]+)\}$/.exec(part)?.[1];
      if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(name);
      return greedyParameters.has(name) ? "(.+)" : "([^/]+)";
    })
    .join("");
  return { route, expression: new RegExp(`^${source}/?$`), names };
}
