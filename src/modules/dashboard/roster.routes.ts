import type { Request, Router } from 'express';
import { AppError, PaymentRequiredError, ValidationError } from '../../errors.js';
import type { Account } from '../accounts/account.js';
import { uuidParam } from '../../http/common.schemas.js';
import { sendJobSummary } from '../jobs/jobs-pdf.js';
import { sendJobCsv } from '../jobs/jobs-csv.js';
import type { JobsService } from '../jobs/jobs.service.js';
import { parseRosterCsv } from '../jobs/roster.js';
import { csvUpload, type DashboardKit } from './monitoring.routes.js';
import { rosterJobPage, rosterListPage } from './roster-page.js';

const JobId = uuidParam('job');
const jobId = (req: Request) => {
  const parsed = JobId.safeParse(req.params.id);
  if (!parsed.success) throw new AppError(404, 'no such job');
  return parsed.data;
};

/** The roster pages: upload and list, a job's progress and its consider rows, its CSV download, cancel. */
export function rosterRoutes(router: Router, kit: DashboardKit, jobs: JobsService) {
  /** Why the account's plan has no jobs, said before any upload; undefined when it has them. */
  const unpaid = (account: Account) => {
    try {
      jobs.checkPlan(account);
      return undefined;
    } catch (err) {
      if (err instanceof PaymentRequiredError) return err.message;
      throw err;
    }
  };
  // 100,000 rows with names fit in 16 MB.
  const readUpload = csvUpload(16);

  kit.route('/jobs', 'get');
  router.get('/jobs', async (req, res) => {
    const account = await kit.pageAccount(req, res);
    if (!account) return;
    kit.send(res, 200, rosterListPage(kit.context(req, res, account), (await jobs.list(account.id, { per_page: 50 })).data, { unpaid: unpaid(account) }));
  });

  kit.route('/jobs', 'post');
  router.post('/jobs', readUpload, async (req, res) => {
    kit.checkCsrf(req);
    const account = await kit.postAccount(req);
    const refuse = async (error: string, problems?: ValidationError['issues']) =>
      kit.send(res, 400, rosterListPage(kit.context(req, res, account), (await jobs.list(account.id, { per_page: 50 })).data, { error, problems }));
    if (!req.file) return refuse('choose a CSV file to upload');
    let roster;
    try {
      roster = await parseRosterCsv(req.file.buffer);
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      const [first, ...rest] = err.issues;
      return refuse(first.msg, first.type === 'roster_invalid' ? rest : undefined);
    }
    const body = req.body as Record<string, unknown>;
    const label = String(body.label ?? '').trim().slice(0, 200) || null;
    try {
      const { job } = await jobs.create({ account, keyId: null }, roster.rows, { watch: body.watch === 'true', label, format: 'csv', request: roster.text });
      res.redirect(303, `/dashboard/jobs/${job.id}`);
    } catch (err) {
      if (err instanceof AppError && err.status < 500) return refuse(err.message);
      throw err;
    }
  });

  kit.route('/jobs/:id', 'get');
  router.get('/jobs/:id', async (req, res) => {
    const account = await kit.pageAccount(req, res);
    if (!account) return;
    const id = jobId(req);
    const job = await jobs.get(account.id, id);
    const cursor = typeof req.query.cursor === 'string' ? req.query.cursor : undefined;
    const consider = await jobs.results(account.id, id, { verdicts: ['consider'], cursor, per_page: 100 });
    kit.send(res, 200, rosterJobPage(kit.context(req, res, account), job, { rows: consider.data, next: consider.meta.next_cursor }));
  });

  // What the job page's script polls while the job runs.
  kit.route('/jobs/:id/status', 'get');
  router.get('/jobs/:id/status', async (req, res) => {
    const account = await kit.pageAccount(req, res);
    if (!account) return;
    res.json(await jobs.get(account.id, jobId(req)));
  });

  kit.route('/jobs/:id/results.csv', 'get');
  router.get('/jobs/:id/results.csv', async (req, res) => {
    const account = await kit.pageAccount(req, res);
    if (!account) return;
    const id = jobId(req);
    await sendJobCsv(res, jobs.allResults(account.id, id, {}), `verification-job-${id}.csv`);
  });

  kit.route('/jobs/:id/summary.pdf', 'get');
  router.get('/jobs/:id/summary.pdf', async (req, res) => {
    const account = await kit.pageAccount(req, res);
    if (!account) return;
    await sendJobSummary(res, await jobs.summary(account.id, jobId(req)));
  });

  kit.route('/jobs/:id/cancel', 'post');
  router.post('/jobs/:id/cancel', async (req, res) => {
    const account = await kit.postAccount(req);
    const id = jobId(req);
    await jobs.cancel(account.id, id).catch((err: unknown) => {
      // Finished meanwhile: the job's page says so.
      if (!(err instanceof AppError && err.status === 409)) throw err;
    });
    res.redirect(303, `/dashboard/jobs/${id}`);
  });
}
