import { spawnSync } from 'node:child_process';

/**
 * Debian's promtool (package prometheus), or undefined where it is missing: its tests are then
 * skipped saying so; in CI (REQUIRE_PROMTOOL=1) a missing promtool fails the run instead.
 */
export function promtool(): ((args: string[], input?: string) => { status: number | null; output: string }) | undefined {
  if (spawnSync('promtool', ['--version'], { encoding: 'utf8' }).status !== 0) {
    if (process.env.REQUIRE_PROMTOOL === '1') throw new Error("REQUIRE_PROMTOOL=1 but promtool (Debian's prometheus package) is not installed");
    console.warn("promtool (Debian's prometheus package) is not installed: its checks are skipped");
    return undefined;
  }
  return (args, input) => {
    const res = spawnSync('promtool', args, { encoding: 'utf8', input });
    return { status: res.status, output: `${res.stdout}${res.stderr}` };
  };
}
