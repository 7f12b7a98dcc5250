export interface ReadinessCheck {
  name: string;
  check: () => Promise<void>;
}

/** Runs every store check at once, each bounded in time, and says which ones fail. */
export function createReadiness(checks: ReadinessCheck[], timeoutMs = 2000) {
  return async function readiness() {
    const results = await Promise.all(
      checks.map(async ({ name, check }) => {
        const started = performance.now();
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            check(),
            new Promise((_, reject) => {
              timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
            }),
          ]);
          return [name, { status: 'ok' as const, latency_ms: Math.round((performance.now() - started) * 10) / 10 }] as const;
        } catch (err) {
          return [name, { status: 'failing' as const, latency_ms: Math.round(performance.now() - started), error: (err as Error).message }] as const;
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    const failing = results.filter(([, r]) => r.status === 'failing').map(([n]) => n);
    return { status: failing.length ? ('not_ready' as const) : ('ready' as const), checks: Object.fromEntries(results), failing };
  };
}
export type Readiness = ReturnType<typeof createReadiness>;
