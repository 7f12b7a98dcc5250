import fs from 'node:fs';
import type { LaunchOptions } from 'playwright-core';

/** Debian's Chromium; a browser is never downloaded. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Whether browser tests can run. Without Chromium they are skipped with the reason; in CI
 * (REQUIRE_BROWSER=1) a missing browser fails the run instead.
 */
export function browserAvailable(): boolean {
  if (fs.existsSync(CHROMIUM)) return true;
  const reason = `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;
  if (process.env.REQUIRE_BROWSER === '1') throw new Error(`REQUIRE_BROWSER=1 but ${reason}`);
  console.warn(`browser tests skipped: ${reason}`);
  return false;
}

/** Headless Chromium as root on a machine with no network beyond loopback. */
export function launchOptions(extraArgs: string[] = []): LaunchOptions {
  return {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  };
}
