import fs from 'node:fs';
import path from 'node:path';

/** What a running server leaves in DATA_DIR so the command line can reach it. */
export interface ServerHandle {
  pid: number;
  url: string;
  token: string;
}

const file = (dataDir: string) => path.join(dataDir, 'server.json');

export function writeServerHandle(dataDir: string, handle: ServerHandle): void {
  fs.writeFileSync(file(dataDir), JSON.stringify(handle), { mode: 0o600 });
}

export function removeServerHandle(dataDir: string): void {
  fs.rmSync(file(dataDir), { force: true });
}

/** The handle of a live server on this data dir, or undefined. */
export function readServerHandle(dataDir: string): ServerHandle | undefined {
  try {
    const handle = JSON.parse(fs.readFileSync(file(dataDir), 'utf8')) as ServerHandle;
    process.kill(handle.pid, 0);
    return handle;
  } catch {
    return undefined;
  }
}
