/** How many of ascending `sorted` are below `value` (with `orEqual`, at or below it): where it would go. */
export function countBelow<T extends string | number>(sorted: ArrayLike<T>, value: T, orEqual = false): number {
  let lo = 0;
  for (let hi = sorted.length; lo < hi; ) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < value || (orEqual && sorted[mid] === value)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Strings by UTF-16 code unit, as Cypher's ORDER BY compares them (not by the locale's collation). */
export const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
