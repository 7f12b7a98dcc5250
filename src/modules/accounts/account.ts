import type { PlanHolder } from '../../domain/plans.js';

/** An account as the other modules see it: who it is, and the plan (and trial) it holds. */
export interface Account extends PlanHolder {
  id: string;
  email: string;
  is_demo: boolean;
  created_at: string;
}
