import { z } from 'zod';
import { BadRequestError } from '../errors.js';
import { toValidationIssues } from '../http/validation.js';
import type { ImportRepo } from '../ingest/import-repo.js';
import { importFolder } from '../ingest/load.js';
import { refresh, type RefreshOptions } from '../ingest/refresh/refresh.js';
import type { RefreshRepo } from '../ingest/refresh/refresh-repo.js';
import type { RefreshLeases } from '../ingest/refresh/refresh-lease.js';
import { resolveFormat } from '../ingest/sources/index.js';
import type { AccountsService } from '../modules/accounts/accounts.service.js';
import { PLAN_NAMES } from '../domain/plans.js';
import type { Signer } from '../modules/receipts/signer.js';

// Operator commands, run the same way by the command line on its own or by the server for it.

const Plan = z.enum(PLAN_NAMES);
const trial = {
  trial_plan: Plan.nullable().optional(),
  trial_ends_at: z.string().nullable().optional(),
};
const Schemas = {
  import: z.object({ folder: z.string().min(1) }),
  ingest: z.object({
    files: z.array(z.string().min(1)).min(1),
    format: z.string().optional(),
    state: z.string().length(2).optional(),
    snapshot: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
    partial: z.boolean().optional(),
    confirm_retire: z.boolean().optional(),
  }),
  'accounts.create': z.object({ email: z.string().min(3), plan: Plan, label: z.string().nullable().optional(), ...trial }),
  'accounts.list': z.object({}),
  'accounts.set-plan': z.object({ account: z.string().min(1), plan: Plan, ...trial }),
  'keys.create': z.object({ account: z.string().min(1), label: z.string().nullable().optional() }),
  'keys.list': z.object({ account: z.string().min(1) }),
  'keys.revoke': z.object({ key_id: z.string().uuid() }),
  'refreshes.list': z.object({}),
  'signing-keys.list': z.object({}),
  'signing-keys.rotate': z.object({ kid: z.string().min(1).optional() }),
  'signing-keys.compromised': z.object({ kid: z.string().min(1), next: z.string().min(1).optional() }),
};
export type CommandName = keyof typeof Schemas;
export const COMMAND_NAMES = Object.keys(Schemas) as CommandName[];

export function adminCommands(deps: {
  accounts?: AccountsService;
  imports?: ImportRepo;
  refresh?: RefreshRepo;
  rejectsDir?: string;
  onProgress?: RefreshOptions['onProgress'];
  leases?: RefreshLeases;
  signer?: Signer;
}) {
  const need = <T>(dep: T | undefined, what: string): T => {
    if (!dep) throw new BadRequestError(`${what} is not available in this process`);
    return dep;
  };
  const handlers: { [K in CommandName]: (args: z.infer<(typeof Schemas)[K]>) => Promise<unknown> } = {
    import: ({ folder }) => importFolder(need(deps.imports, 'the graph'), folder),
    ingest: async (a) => {
      const format = resolveFormat(a.files[0], a.format);
      if (a.state && a.state.toUpperCase() !== format.state) {
        throw new BadRequestError(`${a.files[0]} is a ${format.format} file of ${format.state}, not ${a.state.toUpperCase()}`);
      }
      return refresh(need(deps.refresh, 'the graph'), {
        files: a.files,
        format,
        snapshot: a.snapshot,
        partial: a.partial,
        confirmRetire: a.confirm_retire,
        rejectsDir: need(deps.rejectsDir, 'a rejects folder'),
        onProgress: deps.onProgress,
      });
    },
    'accounts.create': (a) =>
      need(deps.accounts, 'the accounts store').createAccount({
        email: a.email,
        plan: a.plan,
        trialPlan: a.trial_plan,
        trialEndsAt: a.trial_ends_at,
        label: a.label ?? null,
      }),
    'accounts.list': () => need(deps.accounts, 'the accounts store').listAccounts(),
    'accounts.set-plan': (a) => need(deps.accounts, 'the accounts store').setPlan(a.account, a.plan, a.trial_plan, a.trial_ends_at),
    'keys.create': async (a) => {
      const accounts = need(deps.accounts, 'the accounts store');
      return accounts.createKey((await accounts.requireAccount(a.account)).id, a.label ?? null);
    },
    'keys.list': async (a) => {
      const accounts = need(deps.accounts, 'the accounts store');
      return accounts.listKeys((await accounts.requireAccount(a.account)).id);
    },
    'keys.revoke': (a) => need(deps.accounts, 'the accounts store').operatorRevokeKey(a.key_id),
    'refreshes.list': () => need(deps.leases, 'the accounts store').running(),
    'signing-keys.list': () => need(deps.signer, 'the signing keys').keys(),
    'signing-keys.rotate': (a) => need(deps.signer, 'the signing keys').rotate(a.kid),
    'signing-keys.compromised': (a) => need(deps.signer, 'the signing keys').markCompromised(a.kid, a.next),
  };
  return async function run(name: string, args: unknown): Promise<unknown> {
    if (!(name in Schemas)) throw new BadRequestError(`unknown command ${name}; known: ${COMMAND_NAMES.join(', ')}`);
    const schema = Schemas[name as CommandName];
    const parsed = schema.safeParse(args ?? {});
    if (!parsed.success) {
      throw new BadRequestError(toValidationIssues('body', parsed.error, args).map((i) => `${i.loc.slice(1).join('.')}: ${i.msg}`).join('; '));
    }
    return (handlers[name as CommandName] as (a: unknown) => Promise<unknown>)(parsed.data);
  };
}
export type RunCommand = ReturnType<typeof adminCommands>;
