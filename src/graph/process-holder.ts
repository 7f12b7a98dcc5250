import os from 'node:os';

/** How a claim names the process that holds it (a refresh lease, the Neo4j refresh claim): host:pid. */
export const thisProcess = () => `${os.hostname()}:${process.pid}`;

/** The holder was a process on this host that is gone (killed): its claim needs no timeout to lapse. */
export function goneHere(holder: string): boolean {
  const at = holder.lastIndexOf(':');
  if (holder.slice(0, at) !== os.hostname()) return false;
  try {
    process.kill(Number(holder.slice(at + 1)), 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
