import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The dependency rules of src/ (.dependency-cruiser.cjs, docs/architecture.md), checked by
// dependency-cruiser over every file, type-only imports included. The violations that predate a
// rule are listed in .dependency-cruiser-known-violations.json, which may only shrink.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
  cycle?: { name: string }[];
}
const named = (v: Violation) => `${v.rule.name}: ${v.from} -> ${v.cycle?.map((c) => c.name).join(' -> ') ?? v.to}`;

function cruise(...files: string[]): Violation[] {
  // Exit code 1 means violations found: the JSON says which.
  const run = (() => {
    try {
      return execFileSync(process.execPath, [CLI, ...files, '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
    } catch (err) {
      const out = (err as { stdout?: string }).stdout;
      if (!out) throw err;
      return out;
    }
  })();
  return (JSON.parse(run) as { summary: { violations: Violation[] } }).summary.violations;
}

describe('the dependency rules over src/', () => {
  const known = (JSON.parse(fs.readFileSync(path.join(ROOT, '.dependency-cruiser-known-violations.json'), 'utf8')) as Violation[]).map(named).sort();
  const found = cruise('src').map(named).sort();

  it('when src/ is cruised then it breaks no rule beyond the known violations', () => {
    expect(found.filter((v) => !known.includes(v))).toEqual([]);
  });

  it('when a known violation is gone then it is taken off the list, which only shrinks', () => {
    expect(known.filter((v) => !found.includes(v))).toEqual([]);
  });

  it('when a file breaks a rule, types included, then the check sees it', () => {
    const dir = fs.mkdtempSync(path.join(ROOT, 'src/domain/probe-'));
    try {
      fs.writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b.js';\nimport fs from 'node:fs';\nexport interface A { b?: B }\nexport const read = fs.readFileSync;\n");
      fs.writeFileSync(path.join(dir, 'b.ts'), "import type { A } from './a.js';\nimport type { Meter } from '../../modules/accounts/metering.js';\nexport interface B { a?: A; m?: Meter }\n");
      const rules = cruise(path.relative(ROOT, dir)).map((v) => v.rule.name);
      expect(rules).toEqual(expect.arrayContaining(['no-circular', 'domain-does-no-io-core', 'domain-does-no-io']));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
