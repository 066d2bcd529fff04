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

export interface EmailMessage {
  to: string[]
  cc?: string[]
  bcc?: string[]
  replyTo?: string
  subject: string
  text: string
  html?: string
}

/**
 * Sends one message to several recipients (cc, bcc and reply-to included) through SMTP when
 * it is configured; otherwise one copy per distinct recipient goes to the dev mailbox, as
 * delivery would. Plugins reach it through `#sdk/mail`.
 */
export async function sendEmail(
  message: EmailMessage
): Promise<{ transport: 'smtp' | 'dev-mailbox' }> {
  const cc = message.cc ?? []
  const bcc = message.bcc ?? []
  if (smtpConfigured()) {
    // sendMail's message has no cc, bcc or reply-to: SMTP takes them here.
    await mail.send((m) => {
      for (const address of message.to) m.to(address)
      if (cc.length > 0) m.cc(cc)
      if (bcc.length > 0) m.bcc(bcc)
      if (message.replyTo) m.replyTo(message.replyTo)
      m.subject(message.subject).text(message.text)
      if (message.html !== undefined) m.html(message.html)
    })
    return { transport: 'smtp' }
  }
  for (const address of new Set([...message.to, ...cc, ...bcc])) {
    await sendMail({
      to: address,
      subject: message.subject,
      text: message.text,
      html: message.html,
    })
  }
  return { transport: 'dev-mailbox' }
}
