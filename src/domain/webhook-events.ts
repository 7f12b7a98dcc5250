import { CHANGE_TYPES, changeTypeNamed, type ChangeType } from './changes.js';

/** What a roster verification job announces when it stops (docs/changes.md, apart from the change feed). */
export const JOB_EVENT_TYPES = ['verification_job.completed', 'verification_job.failed'] as const;
export type JobEventType = (typeof JOB_EVENT_TYPES)[number];

/** Every type a webhook endpoint can subscribe to: the change feed's and the jobs'. */
export const EVENT_TYPES = [...CHANGE_TYPES, ...JOB_EVENT_TYPES] as const;
export type EventType = ChangeType | JobEventType;

/** The type a name a client sent stands for on `today` (an old change type's name included), or undefined. */
export function eventTypeNamed(name: string, today: string): EventType | undefined {
  return (JOB_EVENT_TYPES as readonly string[]).includes(name) ? (name as JobEventType) : changeTypeNamed(name, today);
}
