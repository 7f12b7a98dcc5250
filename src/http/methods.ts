import type { RequestHandler } from 'express';
import { match } from 'path-to-regexp';

/**
 * The methods each path answers, filled as routes are mounted. Its guard answers OPTIONS with 204
 * and a method the path does not take with 405, both with `Allow` (RFC 9110 §15.5.6), before any
 * key is asked for: which methods a path takes is public, like the OpenAPI document.
 */
export function createMethodTable() {
  const paths: { path: string; matches: (path: string) => boolean; methods: Set<string> }[] = [];

  /** The methods `path` answers, and its template: the first that answers `method` there, else the first that matches. */
  function allowed(path: string, method: string): { allow: string[]; template?: string } | undefined {
    const methods = new Set<string>();
    let template: string | undefined;
    let first: string | undefined;
    for (const p of paths) {
      if (!p.matches(path)) continue;
      first ??= p.path;
      p.methods.forEach((m) => methods.add(m));
      if (!template && (p.methods.has(method) || (method === 'HEAD' && p.methods.has('GET')))) template = p.path;
    }
    if (!methods.size) return undefined;
    if (methods.has('GET')) methods.add('HEAD');
    methods.add('OPTIONS');
    return { allow: [...methods].sort(), template: template ?? first };
  }

  return {
    /** Records that `path` (Express syntax) answers `method`. */
    add(path: string, method: string): void {
      let entry = paths.find((p) => p.path === path);
      if (!entry) {
        const test = match(path, { decode: false });
        entry = { path, matches: (candidate: string) => test(candidate) !== false, methods: new Set() };
        paths.push(entry);
      }
      entry.methods.add(method.toUpperCase());
    },

    guard: ((req, res, next) => {
      const found = allowed(req.path, req.method);
      if (!found) return next();
      const { allow, template } = found;
      res.locals.route = template;
      if (req.method === 'OPTIONS') {
        res.set('Allow', allow.join(', ')).status(204).end();
        return;
      }
      if (allow.includes(req.method)) return next();
      res
        .set('Allow', allow.join(', '))
        .status(405)
        .json({ detail: `Method Not Allowed: ${req.method} ${req.path} (allowed: ${allow.join(', ')})` });
    }) as RequestHandler,
  };
}
export type MethodTable = ReturnType<typeof createMethodTable>;
