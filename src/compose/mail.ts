import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Mailer } from '../mail/mailer.js';
import { noMailer, outboxMailer, smtpMailer } from '../mail/nodemailer.js';

/** Where the dashboard's e-mail goes: where the deployment sends its mail. */
export interface MailSetup {
  mailer: Mailer;
  /** Links in e-mails start with it (PUBLIC_BASE_URL). */
  publicBaseUrl: string;
}

/**
 * SMTP when SMTP_URL is set; beside a production store without it, no mail (sign-up off, with a
 * warning, and never a token in a log); on the embedded defaults, an outbox folder under DATA_DIR
 * with each link in the log, so that the two-command start still lets a person sign up.
 */
export function mailSetup(config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'NEO4J_URI' | 'DATABASE_URL' | 'dataDir' | 'publicBaseUrl'>, logger: Pick<Logger, 'info' | 'warn'>): MailSetup {
  const from = config.MAIL_FROM ?? 'Licensee Verification Service <no-reply@localhost>';
  const { publicBaseUrl } = config;
  if (config.SMTP_URL) return { mailer: smtpMailer(config.SMTP_URL, from), publicBaseUrl };
  if (config.NEO4J_URI || config.DATABASE_URL) {
    logger.warn('SMTP_URL is not set: sign-up and sign-in by e-mail are off (set SMTP_URL and MAIL_FROM to turn them on)');
    return { mailer: noMailer, publicBaseUrl };
  }
  const outbox = path.join(config.dataDir, 'outbox');
  const mailer = outboxMailer(outbox, from, (m) => logger.info({ to: m.to, file: m.file }, `e-mail to ${m.to} (${m.subject}) in ${outbox}${m.link ? `: open ${m.link}` : ''}`));
  return { mailer, publicBaseUrl };
}

/** No mail at all (a bench or a test that sends none). */
export const noMail = (publicBaseUrl: string): MailSetup => ({ mailer: noMailer, publicBaseUrl });
