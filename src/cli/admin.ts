// The operator command line: accounts, plans and API keys, and the refreshes running.
// Usage: npm run -s admin -- <command> [options]   (or lvs-admin <command> when installed)
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { compose } from '../compose/index.js';
import { adminCommands } from '../operator/admin.commands.js';
import type { Account } from '../modules/accounts/account.js';
import { PLAN_NAMES } from '../domain/plans.js';
import type { RunningRefresh } from '../domain/refreshes.js';
import { exitWithError, runOperatorCommand } from './operator.js';

const USAGE = `usage: lvs-admin <command> [options] [--json]

  accounts create --email E --plan P [--trial-plan P --trial-days N] [--label L]
                                  create an account and its first key; prints the id and the raw key once
  accounts list                   list accounts
  accounts set-plan <account> --plan P [--trial-plan P --trial-days N]
                                  change the plan (and trial) of an account (id or e-mail)
  keys create <account> [--label L]
                                  create another key; prints the raw key once
  keys list <account>             list active keys (hashed)
  keys revoke <key-id>            revoke a key at once
  refreshes list                  the state refreshes running now: phase, rows read, rate
  signing-keys list               the keys that sign receipts, and which one signs now
  signing-keys rotate [<kid>]     a new key signs from now on (added to the key file), or the key set's <kid>;
                                  receipts signed before still verify
  signing-keys compromised <kid> [--next <kid>]
                                  list a key as compromised in the JWKS (rotating away from it first);
                                  receipts it signed are signed again when next asked for

plans: ${PLAN_NAMES.join(', ')}. With the embedded store (no DATABASE_URL) the command works while
the server runs (through it) or on its own when no server runs.`;

function trialEnd(days: string | undefined): string | null {
  if (days === undefined) return null;
  const n = Number(days);
  if (!Number.isInteger(n) || n < 1 || n > 365) throw new Error('--trial-days takes a whole number from 1 to 365');
  return new Date(Date.now() + n * 86_400_000).toISOString();
}

function table(accounts: Account[]) {
  for (const a of accounts) {
    const trial = a.trial_plan ? ` trial=${a.trial_plan} until ${a.trial_ends_at}` : '';
    console.log(`${a.id}  ${a.plan.padEnd(10)} ${a.email}${trial}${a.is_demo ? '  (demo)' : ''}`);
  }
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      plan: { type: 'string' },
      'trial-plan': { type: 'string' },
      'trial-days': { type: 'string' },
      label: { type: 'string' },
      next: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const [group, action, target] = positionals;
  const command = `${group}.${action}`;
  if (values.help || !group) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const trial = { trial_plan: values['trial-plan'] ?? null, trial_ends_at: trialEnd(values['trial-days']) };
  if (trial.trial_plan && !trial.trial_ends_at) throw new Error('--trial-plan needs --trial-days');
  const args: Record<string, Record<string, unknown>> = {
    'accounts.create': { email: values.email, plan: values.plan, label: values.label ?? null, ...trial },
    'accounts.list': {},
    'accounts.set-plan': { account: target, plan: values.plan, ...trial },
    'keys.create': { account: target, label: values.label ?? null },
    'keys.list': { account: target },
    'keys.revoke': { key_id: target },
    'refreshes.list': {},
    'signing-keys.list': {},
    'signing-keys.rotate': target ? { kid: target } : {},
    'signing-keys.compromised': { kid: target, next: values.next },
  };
  if (!args[command]) {
    console.error(`unknown command: ${positionals.join(' ')}\n\n${USAGE}`);
    process.exit(2);
  }
  const config = loadConfig();
  // Only the first account makes an embedded store; any other command on a data dir without one
  // would otherwise leave an empty store behind and answer as if nothing were wrong.
  const creating = !config.DATABASE_URL && !fs.existsSync(config.pglitePath);
  if (creating && command !== 'accounts.create') {
    throw new Error(`no accounts store at ${config.pglitePath} (DATA_DIR=${config.dataDir}): create the first account with \`accounts create\`, or point DATA_DIR at the server's data dir`);
  }
  const result = await runOperatorCommand(command, args[command], config.dataDir, async () => {
    const root = compose(config);
    const [accounts, leases] = await Promise.all([root.accounts(), root.leases()]);
    if (creating) process.stderr.write(`created the accounts store at ${config.pglitePath}\n`);
    const signer = command.startsWith('signing-keys.') ? (await root.side()).signer : undefined;
    return { run: adminCommands({ accounts, leases, signer }), close: root.close };
  });
  if (values.json) {
    console.log(JSON.stringify(result, null, 2));
    return;
  }
  const r = result as Record<string, any>;
  switch (command) {
    case 'accounts.create':
      console.log(`account ${r.account.id} (${r.account.email}, ${r.account.plan})`);
      console.log(`API key (shown once, store it now): ${r.key.key}`);
      break;
    case 'keys.create':
      console.log(`key ${r.id}: ${r.key}  (shown once, store it now)`);
      break;
    case 'accounts.list':
      table(result as Account[]);
      break;
    case 'accounts.set-plan':
      table([result as Account]);
      break;
    case 'keys.list':
      for (const k of result as Record<string, string>[]) console.log(`${k.id}  ${k.prefix}...${k.last_four}  ${k.label ?? ''}  last used ${k.last_used_at ?? 'never'}`);
      break;
    case 'keys.revoke':
      console.log(`key ${r.id} revoked at ${r.revoked_at}`);
      break;
    case 'signing-keys.list':
      for (const k of result as Record<string, string | null>[]) {
        const since = k.compromised_at ? ` compromised ${k.compromised_at}` : k.retired_at ? ` retired ${k.retired_at}` : '';
        console.log(`${k.kid}  ${k.status!.padEnd(11)} created ${k.created_at}${since}`);
      }
      break;
    case 'signing-keys.rotate':
      console.log(`key ${r.kid} signs receipts from now on`);
      break;
    case 'signing-keys.compromised':
      console.log(`key ${r.kid} listed as compromised since ${r.compromised_at}`);
      break;
    case 'refreshes.list': {
      const runs = result as RunningRefresh[];
      if (!runs.length) console.log('no refresh is running');
      for (const x of runs) {
        const seconds = Math.max((Date.now() - Date.parse(x.started_at)) / 1000, 0.001);
        const p = x.progress;
        const percent = p.total_bytes ? ` ${Math.round((100 * p.bytes_read) / p.total_bytes)}% read` : '';
        console.log(`${x.state} ${x.source}  ${p.phase}  ${p.rows_read.toLocaleString('en-US')} rows  ${Math.round(p.rows_read / seconds).toLocaleString('en-US')} rows/s${percent}  run ${x.run_id} on ${x.holder} since ${x.started_at}`);
      }
      break;
    }
  }
}

main().catch(exitWithError);
