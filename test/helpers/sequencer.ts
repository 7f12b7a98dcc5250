import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The files that take longest in each project (seconds measured on 2 cores, decision 0031) start
// first, longest first, so that no project ends on one of them while the other fork idles. Vitest
// orders by its own results cache when it has one, which a clean clone (CI) does not; the rest keep
// its order (largest file first without a cache).
const LONGEST: Record<string, Record<string, number>> = {
  ladybug: {
    'test/e2e/neo4j-offline-import.test.ts': 64,
    'test/e2e/start-and-import.test.ts': 51,
    'test/graph/sources.both.test.ts': 43,
    'test/unit/cypher-lint.test.ts': 42,
    'test/api/webhooks.both.test.ts': 39,
    'test/e2e/ingest-command.test.ts': 35,
    'test/e2e/refresh-kill.both.test.ts': 35,
    'test/e2e/ingest-all.test.ts': 32,
    'test/e2e/verification-records-crash.test.ts': 32,
    'test/e2e/outages.test.ts': 30,
    'test/e2e/admin-cli.test.ts': 30,
    'test/e2e/jobs-restart.both.test.ts': 26,
    'test/browser/dashboard.test.ts': 25,
  },
  neo4j: {
    'test/graph/sources.both.test.ts': 167,
    'test/e2e/neo4j-deployment.neo4j.test.ts': 129,
    'test/graph/read-models.both.test.ts': 50,
    'test/api/changes.both.test.ts': 40,
    'test/e2e/refresh-kill.both.test.ts': 34,
    'test/graph/import.both.test.ts': 33,
    'test/api/roster-history.both.test.ts': 31,
    'test/browser/neo4j-browser.neo4j.test.ts': 26,
    'test/api/verifications.both.test.ts': 24,
    'test/e2e/jobs-restart.both.test.ts': 21,
  },
};

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const seconds = (spec: TestSpecification) => {
      const rel = path.relative(spec.project.config.root, spec.moduleId).split(path.sep).join('/');
      return LONGEST[spec.project.name]?.[rel] ?? 0;
    };
    // A stable sort: projects stay in their groups, unlisted files in the base order.
    return sorted
      .map((spec, i) => ({ spec, i }))
      .sort((a, b) => a.spec.project.config.sequence.groupOrder - b.spec.project.config.sequence.groupOrder || seconds(b.spec) - seconds(a.spec) || a.i - b.i)
      .map(({ spec }) => spec);
  }
}
