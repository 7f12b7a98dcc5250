import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { JobResponse } from '../../src/modules/jobs/jobs.schemas.js';
import { parseRosterCsv } from '../../src/modules/jobs/roster.js';
import { CSV_CORPUS } from '../helpers/broken-csv.js';
import { fixture, useApp } from '../helpers/graph.js';
import { body, errorDetail, validationErrors } from '../helpers/http.js';

// Every roster upload to the API with a broken or unusual file: a 422 naming the line and what is
// wrong, or the file read right; the process lives on (a parser error once ended it). The
// dashboard's two upload forms are fed the same files in test/api/dashboard.test.ts.
describe('roster uploads to the API', () => {
  const t = useApp(fixture('small'));
  const upload = (bytes: Buffer, type = 'text/csv') => t.api.post('/api/v1/verification-jobs').set('Content-Type', type).send(bytes);

  for (const c of CSV_CORPUS) {
    it(`when the roster is ${c.name} then it is ${c.error ? 'refused naming what is wrong' : 'read row by row'}`, async () => {
      const res = await upload(c.bytes);
      if (c.error) {
        const detail = validationErrors(res);
        const problem = detail[0].type === 'roster_invalid' ? detail[1] : detail[0];
        expect(problem).toMatchObject({ type: c.error.type, ...(c.error.loc ? { loc: c.error.loc } : {}) });
        expect(problem.msg).toMatch(c.error.msg);
      } else {
        expect(body(res, JobResponse, 202).data.rows_total).toBe(c.rows);
      }
      expect((await request(t.app).get('/health')).status).toBe(200);
    });
  }

  it('when a Windows-1252 roster is read then its names are the letters it meant, not U+FFFD', async () => {
    const c = CSV_CORPUS.find((x) => x.name === 'a Windows-1252 file')!;
    expect((await parseRosterCsv(c.bytes)).rows[0].name).toBe('José Peña');
    expect((await parseRosterCsv(Buffer.from('state,license_number,name\nTX,1,José\n'))).rows[0].name).toBe('José');
    // A sender that names UTF-8 for bytes that are not is told so.
    const named = validationErrors(await upload(c.bytes, 'text/csv; charset=utf-8'));
    expect(named[0]).toMatchObject({ loc: ['body'], type: 'csv_invalid' });
    expect(named[0].msg).toMatch(/not UTF-8/);
  });

  it('when the body is empty then the answer says a roster is needed, whatever the type', async () => {
    for (const type of ['text/csv', 'application/json']) {
      const detail = validationErrors(await t.api.post('/api/v1/verification-jobs').set('Content-Type', type));
      expect(detail[0]).toMatchObject({ loc: ['body'], type: 'missing' });
      expect(detail[0].msg).toMatch(/no body: send JSON .* or text\/csv/);
    }
  });

  it('when a free plan uploads a roster then it is refused before the file is read', async () => {
    const free = (await t.side.accounts.createAccount({ email: 'free-roster@example.com', plan: 'free' })).key.key;
    // A broken file: were it read first, the answer would be its 422.
    const res = await request(t.app).post('/api/v1/verification-jobs').set('Authorization', `Bearer ${free}`).set('Content-Type', 'text/csv').send('state,license_number\nTX,"1\n');
    expect(errorDetail(res, 402)).toMatch(/free plan does not include roster verification jobs/);
  });
});
