// The name matcher on the labelled pairs (npm run bench:names): counts, precision of exact + close,
// recall, and the pairs it gets wrong. The names come from ../shared/data/sources; without it, skips.
import { matchName } from '../../src/domain/name-match.js';
import { SHARED_SOURCES, hasShared } from '../../test/helpers/source-files.js';
import { resolvePairs, score } from './pairs.js';

if (!hasShared) {
  console.log(`skipped: ${SHARED_SOURCES} is absent (the pairs name real records there)`);
} else {
  const s = score(resolvePairs(SHARED_SOURCES), matchName);
  const results: Record<string, number> = {};
  for (const r of resolvePairs(SHARED_SOURCES)) {
    const k = `${r.pair.label} -> ${matchName(r.query, r.record)?.result ?? 'null'}`;
    results[k] = (results[k] ?? 0) + 1;
  }
  console.log(`${s.pairs} pairs: ${s.positives} match, ${s.pairs - s.positives} non-match (${s.hardNegatives} hard, ${((100 * s.hardNegatives) / s.pairs).toFixed(1)}%)`);
  console.table(results);
  console.table(s.byKind);
  console.log(`precision of exact + close: ${s.precision.toFixed(4)} (${s.truePositives} of ${s.truePositives + s.falsePositives})`);
  console.log(`recall: ${s.recall.toFixed(4)} (${s.truePositives} of ${s.positives})`);
  console.log(`${s.errors.length} errors:`);
  for (const { r, got } of s.errors) {
    const q = r.query.name ?? `${r.query.first_name ?? ''} | ${r.query.last_name ?? ''}`;
    console.log(`  #${r.pair.id} ${r.pair.label} ${r.pair.kind}: ${got?.result ?? 'null'} ${got?.score.toFixed(3) ?? ''}  "${q}" vs "${got?.compared_with.value ?? r.record.full_name}"`);
  }
}
