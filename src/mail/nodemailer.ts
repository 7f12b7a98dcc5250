import fs from 'node:fs';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Mail, Mailer } from './mailer.js';

// nodemailer loads when the first message goes (a tenth of a second of a start otherwise).
type Options = Parameters<typeof import('nodemailer').createTransport>[0];
function lazyTransport(options: Options): () => Promise<Transporter> {
  let made: Promise<Transporter> | undefined;
  return () => (made ??= import('nodemailer').then((m) => m.default.createTransport(options) as Transporter));
}

/** Sends over SMTP (`smtp://`, `smtps://`, credentials in the URL). */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = lazyTransport(url);
  return {
    mode: 'smtp',
    async send(mail) {
      await (await transport()).sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}

/**
 * Writes each message as an .eml file to `dir` and logs its link, so that the embedded defaults
 * let a person sign up with no mail server.
 */
export function outboxMailer(dir: string, from: string, log: (mail: Omit<Mail, 'text'> & { file: string }) => void): Mailer {
  const transport = lazyTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    mode: 'outbox',
    async send(mail) {
      const info = await (await transport()).sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
      // The messages hold sign-in links: readable by the service's user alone.
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '')}-${info.messageId.replace(/[^\w.-]/g, '')}.eml`);
      fs.writeFileSync(file, info.message as Buffer, { mode: 0o600 });
      log({ to: mail.to, subject: mail.subject, link: mail.link, file });
    },
  };
}

/** No mail server: sign-up and sign-in are off. */
export const noMailer: Mailer = {
  mode: 'off',
  async send() {
    throw new Error('no mail server is configured (SMTP_URL)');
  },
};
