// A real SMTP server (smtp-server) on loopback that keeps every message it receives, parsed.
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { freePort } from '../../shared/db/embedded-postgres.ts';

export interface MailCapture {
  url: string;
  messages: ParsedMail[];
  waitFor(to: string, timeoutMs?: number): Promise<ParsedMail>;
  /** Refuse every message from now on (a failing mail server). */
  refuseAll(refuse: boolean): void;
  close(): Promise<void>;
}

/** `port`: listen there (a mail server that comes up where the service already points). */
export async function startMailCapture(port?: number): Promise<MailCapture> {
  const messages: ParsedMail[] = [];
  let refusing = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, done) {
      if (refusing) {
        stream.resume();
        stream.on('end', () => done(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 })));
        return;
      }
      simpleParser(stream).then(
        (mail) => {
          messages.push(mail);
          done();
        },
        (error: Error) => done(error),
      );
    },
  });
  port ??= await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const recipients = (mail: ParsedMail) =>
    [mail.to].flat().flatMap((address) => (address ? address.value.map((v) => v.address?.toLowerCase()) : []));
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    refuseAll: (refuse) => {
      refusing = refuse;
    },
    async waitFor(to, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = messages.find((mail) => recipients(mail).includes(to.toLowerCase()));
        if (found) return found;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
