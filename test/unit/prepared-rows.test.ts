import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { credentialId } from '../../src/domain/identity.js';
import { preparedBatches, type PrepareJob } from '../../src/ingest/rows/prepared-rows.js';
import { TX_HEADER, tempFile, txRow } from '../helpers/source-files.js';

const job = (files: string[], format = 'trec-csv'): PrepareJob => ({ files, format, source: 'tx-trec', state: 'TX', snapshot: '2026-11-01', now: '2026-11-01T06:00:00.000Z' });

async function all(j: PrepareJob) {
  const batches = [];
  for await (const b of preparedBatches(j)) batches.push(b);
  return batches;
}

describe('rows prepared in the parsing worker', () => {
  it('when two files are read then every row arrives once, in file and line order, with its record, links and rejects, and the bytes reach the total', async () => {
    const rows = Array.from({ length: 1200 }, (_, i) => txRow({ type: 'Sales Agent', number: `${1000 + i}`, name: `AGENT ${i}`, related: '9', relatedStart: '01/01/2020' }));
    const a = tempFile('a.csv', `${TX_HEADER}\n${rows.slice(0, 700).join('\n')}\n`);
    const b = tempFile('b.csv', `${TX_HEADER}\n${rows.slice(700).join('\n')}\nSales Agent,,NO NUMBER,,Active,01/15/2015,01/31/2027,,,,,,,,,"X, Y",Y,,X,\n`);
    const batches = await all(job([a, b]));
    const prepared = batches.flatMap((x) => x.rows);
    expect(prepared).toHaveLength(1201);
    expect(prepared.map((r) => `${r.file}:${r.line}`).slice(698, 702)).toEqual(['a.csv:700', 'a.csv:701', 'b.csv:2', 'b.csv:3']);
    expect(prepared[0]).toMatchObject({ listed: credentialId('TX', '1000'), record: { id: credentialId('TX', '1000'), license_number: '1000' } });
    expect(prepared[0].links).toEqual([expect.objectContaining({ supervisor_id: credentialId('TX', '9'), affiliate_id: credentialId('TX', '1000'), effective_from: '2020-01-01' })]);
    expect(prepared.at(-1)).toMatchObject({ file: 'b.csv', line: 502, listed: null, reject: { reason: 'invalid license_number' } });
    expect(batches.at(-1)!.bytes).toBe(fs.statSync(a).size + fs.statSync(b).size);
  });

  it('when the format is unknown or a file cannot be read then the error reaches the caller', async () => {
    await expect(all(job([tempFile('x.csv', 'a\n')], 'no-such-format'))).rejects.toThrow('unknown source format no-such-format');
    await expect(all(job(['/nonexistent/file.csv']))).rejects.toThrow(/ENOENT/);
  });

  it('when the caller stops early then the worker stops too and the next run starts cleanly', async () => {
    const many = tempFile('m.csv', `${TX_HEADER}\n${Array.from({ length: 30000 }, (_, i) => txRow({ type: 'Sales Agent', number: `${i}`, name: `AGENT ${i}` })).join('\n')}\n`);
    let seen = 0;
    for await (const b of preparedBatches(job([many]))) {
      seen += b.rows.length;
      break;
    }
    expect(seen).toBeGreaterThan(0);
    expect(seen).toBeLessThan(30000);
    const again = await all(job([many]));
    expect(again.reduce((n, b) => n + b.rows.length, 0)).toBe(30000);
  });
});
