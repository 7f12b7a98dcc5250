import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  /** The first http(s) link in the text. */
  link?: string;
}

/** A real SMTP server in the test process (smtp-server): what the service sends, parsed. */
export async function testSmtpServer() {
  const received: ReceivedMail[] = [];
  const waiting: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const text = mail.text ?? '';
          received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), subject: mail.subject ?? '', text, link: /https?:\/\/\S+/.exec(text)?.[0] });
          waiting.splice(0).forEach((w) => w());
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** The next message to `to` after the `after`-th one received. */
    async next(to: string, after: number): Promise<ReceivedMail> {
      for (;;) {
        const found = received.slice(after).find((m) => m.to === to);
        if (found) return found;
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no e-mail to ${to} within 10 s`)), 10_000);
          waiting.push(() => (clearTimeout(timer), resolve()));
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
