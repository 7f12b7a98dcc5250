/** The one source of the time: the composition root makes it, and tests pin it. */
export interface Clock {
  now(): Date;
  /** The day (YYYY-MM-DD, UTC) that "in force today" means. */
  today(): string;
}

export const systemClock: Clock = {
  now: () => new Date(),
  today: () => new Date().toISOString().slice(0, 10),
};
