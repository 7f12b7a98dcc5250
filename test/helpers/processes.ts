import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The service's own commands run as child processes, the way a user runs them.
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/**
 * The children's environment: this machine's, without any store of its own configured; they read
 * nothing ahead of readiness (GRAPH_WARM_UP_READS). Read at each start, not at import: a worker
 * that runs several files (isolate: false) keeps this module, and each file has its own TMPDIR.
 */
export function baseEnv(): Record<string, string | undefined> {
  const { NEO4J_URI: _n, DATABASE_URL: _d, ...rest } = process.env;
  return { GRAPH_WARM_UP_READS: '0', ...rest };
}
/**
 * V8 flags for the suite's Node processes, which live seconds: PGlite's 9 MB WebAssembly stays on
 * the baseline compiler instead of being compiled again by the optimizing one in background
 * threads, about 1.2 CPU s a process (decision 0031). Long-lived servers keep V8's defaults.
 */
export const SHORT_LIVED_NODE = ['--no-wasm-tier-up', '--no-wasm-dynamic-tiering'];
export const TSX = [...SHORT_LIVED_NODE, '--import', 'tsx'];

export interface Running {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts the real server (src/main.ts) on a free port and waits for its "listening" line. */
export function startServer(env: Record<string, string>): Promise<Running> {
  const child = spawn(process.execPath, [...TSX, 'src/main.ts'], {
    cwd: ROOT,
    env: { ...baseEnv(), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 45000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/[^\s"]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1], output: () => out, exited });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    exited.then((code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
}

/** Runs one of the service's command-line scripts to completion. */
export function runScript(script: string, args: string[], env: Record<string, string>, timeout = 120_000) {
  return spawnSync(process.execPath, [...TSX, script, ...args], { cwd: ROOT, env: { ...baseEnv(), ...env }, encoding: 'utf8', timeout });
}

/**
 * runScript without blocking this process, so a server it started keeps being read (its log
 * says why it did not answer) while the script talks to it.
 */
export function runScriptAsync(script: string, args: string[], env: Record<string, string>, timeout = 120_000) {
  const child = spawn(process.execPath, [...TSX, script, ...args], { cwd: ROOT, env: { ...baseEnv(), ...env }, timeout });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  return new Promise<{ status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
}

/** Starts one of the service's command-line scripts and returns at once. */
export function spawnScript(script: string, args: string[], env: Record<string, string>) {
  return spawn(process.execPath, [...TSX, script, ...args], { cwd: ROOT, env: { ...baseEnv(), ...env }, stdio: 'ignore' });
}

/** GET with an optional API key; the status and the parsed JSON body. */
export async function getJson(url: string, key?: string): Promise<{ status: number; body: Record<string, any> }> {
  const res = await fetch(url, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}
