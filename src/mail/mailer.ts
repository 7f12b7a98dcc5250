// The mail port: what the dashboard sends (verification and sign-in links). Adapters in
// nodemailer.ts; the composition root picks one from the configuration.

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The link the message carries: an outbox (embedded defaults) prints it in the log. */
  link?: string;
}

export interface Mailer {
  /** smtp: sent over SMTP; outbox: written to a folder; off: no mail server configured, nothing can be sent. */
  readonly mode: 'smtp' | 'outbox' | 'off';
  send(mail: Mail): Promise<void>;
}
