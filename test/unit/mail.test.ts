import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { mailSetup } from '../../src/compose/index.js';
import { testSmtpServer } from '../helpers/smtp.js';

// Where the dashboard's e-mail goes, by configuration (docs/dashboard.md, E-mail).
describe('the dashboard\'s mail setup', () => {
  let smtp: Awaited<ReturnType<typeof testSmtpServer>>;
  beforeAll(async () => {
    smtp = await testSmtpServer();
  });
  afterAll(() => smtp?.close());

  const logger = () => {
    const lines: { level: string; obj: unknown; msg: string }[] = [];
    return { lines, info: (obj: unknown, msg: string) => lines.push({ level: 'info', obj, msg }), warn: (msg: string) => lines.push({ level: 'warn', obj: undefined, msg }) };
  };
  const config = (env: Record<string, string>) => loadConfig({ DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-mail-')), ...env });

  it('when nothing is configured (the embedded defaults) then messages go to an outbox under DATA_DIR and the link is logged', async () => {
    const c = config({});
    const log = logger();
    const { mailer, publicBaseUrl } = mailSetup(c, log as never);
    expect(mailer.mode).toBe('outbox');
    expect(publicBaseUrl).toBe('http://localhost:8000');
    await mailer.send({ to: 'someone@example.com', subject: 'Confirm', text: 'open http://localhost:8000/dashboard/link?token=abc', link: 'http://localhost:8000/dashboard/link?token=abc' });
    const files = fs.readdirSync(path.join(c.dataDir, 'outbox'));
    expect(files).toHaveLength(1);
    const eml = fs.readFileSync(path.join(c.dataDir, 'outbox', files[0]), 'utf8');
    expect(eml).toMatch(/^To: someone@example\.com$/m);
    expect(eml).toMatch(/^Subject: Confirm$/m);
    // The message holds a sign-in link: the service's user alone may read it.
    expect(fs.statSync(path.join(c.dataDir, 'outbox', files[0])).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(c.dataDir, 'outbox')).mode & 0o777).toBe(0o700);
    expect(log.lines.map((l) => l.msg).join('\n')).toContain('http://localhost:8000/dashboard/link?token=abc');
  });

  it('when a production store is configured without SMTP_URL then mail is off, the start warns, and nothing is logged with a token', async () => {
    for (const env of [{ DATABASE_URL: 'postgresql://x@127.0.0.1/db' }, { NEO4J_URI: 'bolt://127.0.0.1:7687' }] as Record<string, string>[]) {
      const log = logger();
      const { mailer } = mailSetup(config(env), log as never);
      expect(mailer.mode).toBe('off');
      expect(log.lines).toEqual([expect.objectContaining({ level: 'warn', msg: expect.stringMatching(/sign-up and sign-in by e-mail are off/) })]);
      await expect(mailer.send({ to: 'a@example.com', subject: 's', text: 't', link: 'http://x/?token=secret' })).rejects.toThrow(/no mail server/);
      expect(JSON.stringify(log.lines)).not.toContain('secret');
    }
  });

  it('when SMTP_URL and MAIL_FROM are set then messages go over SMTP from MAIL_FROM, and PUBLIC_BASE_URL is kept', async () => {
    const log = logger();
    const { mailer, publicBaseUrl } = mailSetup(config({ SMTP_URL: smtp.url, MAIL_FROM: 'LVS <no-reply@example.test>', PUBLIC_BASE_URL: 'https://lvs.example.com/' }), log as never);
    expect(mailer.mode).toBe('smtp');
    expect(publicBaseUrl).toBe('https://lvs.example.com');
    const before = smtp.received.length;
    await mailer.send({ to: 'over-smtp@example.com', subject: 'Hello', text: 'body https://lvs.example.com/x', link: 'https://lvs.example.com/x' });
    expect((await smtp.next('over-smtp@example.com', before)).subject).toBe('Hello');
    expect(log.lines).toEqual([]);
  });

  it('when SMTP_URL is set without MAIL_FROM, or is not an SMTP URL, then the configuration is refused naming the variable', () => {
    expect(() => config({ SMTP_URL: smtp.url })).toThrow(/MAIL_FROM/);
    expect(() => config({ SMTP_URL: 'http://mail.example.com', MAIL_FROM: 'x@example.com' })).toThrow(/SMTP_URL/);
    expect(() => config({ PUBLIC_BASE_URL: 'ftp://x' })).toThrow(/PUBLIC_BASE_URL/);
  });
});
