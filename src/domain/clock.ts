/** The one source of the time: the composition root makes it, and tests pin it. */
export interface Clock {
  now(): Date;
  /** The day (YYYY-MM-DD, UTC) that "in force today" means. */
  today(): string;
}

/** A clock reading `now`, its day derived from it. */
export const clockOf = (now: () => Date): Clock => ({ now, today: () => now().toISOString().slice(0, 10) });

export const systemClock = clockOf(() => new Date());
