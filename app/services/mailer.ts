import env from '#start/env'
import logger from '@adonisjs/core/services/logger'
import mail from '@adonisjs/mail/services/main'
import DevMail from '#models/dev_mail'

export interface OutgoingMail {
  to: string
  subject: string
  text: string
  html?: string
}

export function smtpConfigured() {
  return !!env.get('SMTP_HOST')
}

/**
 * Sends a mail through SMTP when it is configured. Without SMTP the mail is written to the
 * log and kept in the dev mailbox, so sign-in works on a machine with no mail server.
 */
export async function sendMail(message: OutgoingMail) {
  if (smtpConfigured()) {
    await mail.send((m) => {
      m.to(message.to).subject(message.subject).text(message.text)
      if (message.html) m.html(message.html)
    })
    return
  }
  await DevMail.create({
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html ?? null,
  })
  logger.info(`[mail to ${message.to}] ${message.subject}\n${message.text}`)
}
