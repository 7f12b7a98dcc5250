import type { RequestHandler } from 'express';
import { match } from 'path-to-regexp';

/**
 * The methods each path answers, filled as routes are mounted. Its guard answers OPTIONS with 204
 * and a method the path does not take with 405, both with `Allow` (RFC 9110 §15.5.6), before any
 * key is asked for: which methods a path takes is public, like the OpenAPI document.
 */
export function createMethodTable() {
  const paths: { path: string; matches: (path: string) => boolean; methods: Set<string> }[] = [];

  function allowed(path: string): string[] | undefined {
    const methods = new Set<string>();
    for (const p of paths) if (p.matches(path)) p.methods.forEach((m) => methods.add(m));
    if (!methods.size) return undefined;
    if (methods.has('GET')) methods.add('HEAD');
    methods.add('OPTIONS');
    return [...methods].sort();
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
      const allow = allowed(req.path);
      if (!allow) return next();
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
