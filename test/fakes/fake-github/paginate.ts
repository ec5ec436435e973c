import type { RouteContext } from "./route.js";

export interface Page<T> {
  items: T[];
  headers: Record<string, string>;
}

/**
 * One page of a list, as GitHub pages: `per_page` (default 30, at most 100),
 * `page` (from 1) and a `Link` header with first/prev/next/last URLs that
 * keep the other query parameters.
 */
export function paginate<T>(items: readonly T[], context: RouteContext): Page<T> {
  const requested = Number.parseInt(context.query.get("per_page") ?? "30", 10);
  const perPage = Number.isNaN(requested) ? 30 : Math.min(100, Math.max(1, requested));
  const requestedPage = Number.parseInt(context.query.get("page") ?? "1", 10);
  const page = Number.isNaN(requestedPage) ? 1 : Math.max(1, requestedPage);
  const lastPage = Math.max(1, Math.ceil(items.length / perPage));
  const link = (target: number, rel: string) => {
    const query = new URLSearchParams(context.query);
    query.set("per_page", String(perPage));
    query.set("page", String(target));
    return `<${context.apiBase}${context.path}?${query.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page > 1) links.push(link(Math.min(page - 1, lastPage), "prev"));
  if (page < lastPage) links.push(link(page + 1, "next"), link(lastPage, "last"));
  if (page > 1) links.push(link(1, "first"));
  return {
    items: items.slice((page - 1) * perPage, page * perPage),
    headers: links.length > 0 ? { link: links.join(", ") } : {},
  };
}
