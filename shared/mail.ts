// Outgoing mail through nodemailer: over SMTP when SMTP_URL is set, else written as .eml files
// under DATA_DIR/mail (the embedded default) so a developer can open them.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from './runtime/logger.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export function createMailer(options: { smtpUrl: string | null; from: string; mailDir: string }, logger: Logger): Mailer {
  if (options.smtpUrl) {
    const transport: Transporter = nodemailer.createTransport(options.smtpUrl, { from: options.from });
    return {
      send: async (message) => {
        await transport.sendMail({ from: options.from, ...message });
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    send: async (message) => {
      const info = await transport.sendMail({ from: options.from, ...message });
      await mkdir(options.mailDir, { recursive: true, mode: 0o700 });
      const file = join(options.mailDir, `${Date.now()}-${info.messageId.replace(/[^A-Za-z0-9.-]/g, '')}.eml`);
      // Only the service's user may read them: they hold verification tokens.
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      logger.info({ file, subject: message.subject }, 'mail written to file');
    },
    close: () => transport.close(),
  };
}
