import env from '#start/env'
import { defineConfig, transports } from '@adonisjs/mail'

/**
 * SMTP when SMTP_HOST is set. Without it, mails never reach this transport: the mailer service
 * (app/services/mailer.ts) prints them to the log and keeps them in the dev mailbox.
 */
const mailConfig = defineConfig({
  default: 'smtp',
  from: env.get('MAIL_FROM') || 'noreply@localhost',
  mailers: {
    smtp: transports.smtp({
      host: env.get('SMTP_HOST') || '127.0.0.1',
      port: env.get('SMTP_PORT') ?? 25,
      secure: env.get('SMTP_SECURE'),
      auth: env.get('SMTP_USERNAME')
        ? { type: 'login', user: env.get('SMTP_USERNAME')!, pass: env.get('SMTP_PASSWORD') ?? '' }
        : undefined,
    }),
  },
})

export default mailConfig

declare module '@adonisjs/mail/types' {
  export interface MailersList extends InferMailers<typeof mailConfig> {}
}
