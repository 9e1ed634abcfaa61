import nodemailer, { type Transporter } from 'nodemailer';
import type { EmailTemplate, Locale } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { emailLogs } from './email.sql.ts';
import { renderEmail, type EmailParams } from './templates.ts';

export interface MailRequest<T extends EmailTemplate = EmailTemplate> {
  to: string;
  template: T;
  params: EmailParams[T];
  locale: Locale;
  /** Where answers go (a ticket's signed reply address). */
  replyTo?: string;
}

export interface Mailer {
  /** Sends one mail and records it in the email log, sent or not; never throws for delivery failures. */
  send<T extends EmailTemplate>(mail: MailRequest<T>): Promise<{ id: number; status: 'sent' | 'failed' | 'not_sent' }>;
  close(): void;
}

export function createMailer(db: Db, opts: { smtpUrl?: string; from: string }): Mailer {
  const transport: Transporter | undefined = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : undefined;
  return {
    async send(mail) {
      const { subject, text, html } = renderEmail(mail.template, mail.params, mail.locale);
      let status: 'sent' | 'failed' | 'not_sent' = 'not_sent';
      let error = 'SMTP_URL is not configured: the mail was recorded but not sent';
      if (transport) {
        try {
          await transport.sendMail({ from: opts.from, to: mail.to, subject, text, html, replyTo: mail.replyTo });
          status = 'sent';
          error = '';
        } catch (err) {
          status = 'failed';
          error = err instanceof Error ? err.message.slice(0, 500) : String(err);
        }
      }
      const [row] = await db
        .insert(emailLogs)
        .values({ to: mail.to, subject, template: mail.template, status, error, sentAt: status === 'sent' ? new Date() : null })
        .returning({ id: emailLogs.id });
      return { id: row!.id, status };
    },
    close() {
      transport?.close();
    },
  };
}
