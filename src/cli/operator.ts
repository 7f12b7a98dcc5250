import http from 'node:http';
import { DataDirLockedError } from '../errors.js';
import type { RunCommand } from '../operator/admin.commands.js';
import { readServerHandle } from '../server-handle.js';

type OpenLocal = () => Promise<{ run: RunCommand; close: () => Promise<void> }>;

/**
 * Operator commands run in this process when it can open the stores, or through the running
 * server that holds the embedded data dir: opened once for several commands. Refuses with exit
 * code 3 when neither is possible.
 */
export async function openOperator(dataDir: string, openLocal: OpenLocal): Promise<{ run: RunCommand; close: () => Promise<void> }> {
  try {
    return await openLocal();
  } catch (err) {
    if (!(err instanceof DataDirLockedError)) throw err;
    const server = readServerHandle(dataDir);
    if (!server) throw Object.assign(new Error(err.message), { exitCode: 3 });
    process.stderr.write(`the server (pid ${server.pid}) holds ${dataDir}; running through it\n`);
    const run = async (name: string, args: unknown) => {
      const { status, body } = await postJson(`${server.url}/internal/commands/${encodeURIComponent(name)}`, args, server.token);
      if (status >= 400) throw new Error(typeof body.detail === 'string' ? body.detail : JSON.stringify(body.detail));
      return body.result;
    };
    return { run, close: async () => undefined };
  }
}

/** One operator command (see openOperator). */
export async function runOperatorCommand(name: string, args: unknown, dataDir: string, openLocal: OpenLocal): Promise<unknown> {
  const operator = await openOperator(dataDir, openLocal);
  try {
    return await operator.run(name, args);
  } finally {
    await operator.close();
  }
}

/**
 * node:http rather than fetch: a large import can run for minutes before the server answers,
 * longer than fetch's fixed header timeout.
 */
function postJson(url: string, payload: unknown, token: string): Promise<{ status: number; body: { result?: unknown; detail?: unknown } }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-admin-token': token } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 500, body: JSON.parse(text) });
        } catch {
          reject(new Error(`the server answered ${res.statusCode} without JSON`));
        }
      });
    });
    req.on('error', reject);
    req.end(JSON.stringify(payload));
  });
}

/** Prints the error and exits: 3 when the data dir is held, 1 otherwise. */
export function exitWithError(err: unknown): never {
  const code = (err as { exitCode?: number }).exitCode ?? 1;
  console.error(`${code === 3 ? 'cannot run' : 'failed'}: ${(err as Error).message}`);
  process.exit(code);
}
