// The dependency rules of src/ (docs/architecture.md), checked by test/unit/dependencies.test.ts.
// Violations that predate a rule are listed in .dependency-cruiser-known-violations.json: the test
// fails on any other, and on a listed one that is gone, so that list only shrinks.
/** Adapters matching `adapters` are imported by the composition root alone (and inside `own`). */
const rootOnly = (name, comment, own, adapters) => ({
  name,
  severity: 'error',
  comment,
  from: { path: '^src/', pathNot: ['^src/compose/', '^src/(main|serve)\\.ts$', own] },
  to: { path: adapters },
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Files that import each other, types included, cannot be understood or changed apart.',
      from: {},
      to: { circular: true },
    },
    rootOnly('engine-adapters-from-the-root-only', 'Only the composition root picks an engine: everything else sees the ports.', '^src/graph/(ladybug|neo4j)', '^src/graph/(ladybug|neo4j)'),
    rootOnly('mail-adapters-from-the-root-only', 'Only the composition root picks how mail goes out; the dashboard sees the Mailer port.', '^src/mail/', '^src/mail/nodemailer\\.ts$'),
    rootOnly('webhook-transport-from-the-root-only', 'Only the composition root picks how webhooks go out; the dispatcher sees the WebhookTransport port.', '^src/modules/webhooks/undici-transport\\.ts$', '^src/modules/webhooks/undici-transport\\.ts$'),
    rootOnly('metrics-from-the-root-only', 'Only the composition root makes the metrics; the parts it watches hear of them through plain callbacks.', '^src/metrics/', '^src/metrics/'),
    rootOnly('search-index-from-the-root-only', 'Only the composition root makes the search index; services see its port (search-port.ts).', '^src/search/', '^src/search/(?!search-port\\.ts$)'),
    {
      name: 'search-index-never-imports-an-engine',
      severity: 'error',
      comment: 'The search index serves both engines: it reads the graph through the SearchSource port alone.',
      from: { path: '^src/search/' },
      to: { path: ['^src/graph/(ladybug|neo4j)/', '^src/(modules|ingest|operator|http|compose)/'] },
    },
    rootOnly('store-adapters-from-the-root-only', 'Only the composition root picks PostgreSQL or PGlite.', '^src/store/', '^src/store/(pglite|postgres)-store\\.ts$'),
    {
      name: 'drivers-inside-their-adapter',
      severity: 'error',
      comment: "An engine's driver is imported by its adapter alone.",
      from: { pathNot: ['^src/graph/neo4j', '^src/graph/ladybug', '^src/metrics/', '^src/store/(pglite|postgres)-store\\.ts$', '^src/store/(pglite-(initdb|worker)|postgres-writer-worker)\\.mjs$', '^src/mail/nodemailer\\.ts$', '^src/modules/webhooks/undici-transport\\.ts$'] },
      to: { path: '^node_modules/(neo4j-driver|@ladybugdb/core|pg|@electric-sql/pglite|nodemailer|undici|prom-client)/' },
    },
    {
      name: 'http-never-imports-a-feature',
      severity: 'error',
      comment: 'http/ declares the interfaces it needs; the feature modules implement them.',
      from: { path: '^src/http/' },
      to: { path: '^src/modules/' },
    },
    {
      name: 'modules-never-import-the-pipeline',
      severity: 'error',
      comment: 'ingest/ is above the modules: it writes through their ports and the graph\'s, they never see it.',
      from: { path: '^src/modules/' },
      to: { path: '^src/ingest/' },
    },
    {
      name: 'modules-and-ingest-never-import-the-operator',
      severity: 'error',
      comment: 'operator/ drives the pipeline and the modules from above: neither imports it.',
      from: { path: '^src/(modules|ingest)/' },
      to: { path: '^src/operator/' },
    },
    {
      name: 'domain-does-no-io',
      severity: 'error',
      comment: 'Domain types and rules import nothing that does I/O, and nothing above them.',
      from: { path: '^src/domain/' },
      to: {
        path: ['^src/(graph|store|http|modules|ingest|operator|cli)/', '^src/compose/', '^src/(main|serve|app|config)\\.ts$', '^node_modules/(neo4j-driver|@ladybugdb/core|pg|@electric-sql/pglite|express)/'],
        dependencyTypes: ['local', 'npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'],
      },
    },
    {
      name: 'domain-does-no-io-core',
      severity: 'error',
      comment: 'Node modules that reach disk, network or processes stay out of the domain.',
      from: { path: '^src/domain/' },
      to: { dependencyTypes: ['core'], path: '^(node:)?(fs|net|http|https|child_process|worker_threads|dgram|dns|tls)(/|$)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are dependencies too: a cycle of types is still a cycle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.mjs', '.js', '.cjs', '.json'] },
  },
};
