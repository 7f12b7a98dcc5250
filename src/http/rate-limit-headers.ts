import type { Response } from 'express';

// Lists of policies (draft-ietf-httpapi-ratelimit-headers-10): each limit a call is under adds its
// item, so a metered answer names the monthly quota and the request rate alike.
const LISTS = new Set(['ratelimit', 'ratelimit-policy']);

const itemName = (item: string) => item.split(';')[0];

/** Sets `headers` on the answer; RateLimit and RateLimit-Policy items join those already set (an item of the same policy is replaced). */
export function setLimitHeaders(res: Response, headers: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(headers)) {
    const before = LISTS.has(name.toLowerCase()) ? res.getHeader(name) : undefined;
    if (typeof before !== 'string' || !before) {
      res.setHeader(name, value);
      continue;
    }
    const added = value.split(', ');
    const names = new Set(added.map(itemName));
    res.setHeader(name, [...added, ...before.split(', ').filter((item) => !names.has(itemName(item)))].join(', '));
  }
}
