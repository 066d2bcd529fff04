import env from '#start/env'
import logger from '@adonisjs/core/services/logger'
import mail from '@adonisjs/mail/services/main'
import DevMail from '#models/dev_mail'
import nodemailer from 'nodemailer'
import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { BlockedRequestError, isInternalAddress } from '#plugins/guarded_http'
import type { EmailMessage, EmailTransport, SmtpAccount } from '#sdk/mail'

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

/**
 * The address to connect to: the host resolved once and checked against the internal-address
 * rule of the HTTP block (docs/security.md), so a name that resolves elsewhere on connect
 * cannot reach the internal network.
 */
async function smtpAddress(account: SmtpAccount) {
  const host = account.host.trim()
  if (!host) throw new Error('SMTP: the host is empty')
  const address = isIP(host) ? host : (await lookup(host)).address
  const allowInternal = account.allowInternal ?? env.get('ALLOW_INTERNAL_HTTP')
  if (!allowInternal && isInternalAddress(address)) {
    throw new BlockedRequestError(
      `SMTP servers on internal network addresses are not allowed (${host} resolves to ${address}). ` +
        'An administrator can allow them with ALLOW_INTERNAL_HTTP=true.'
    )
  }
  return { address, servername: isIP(host) ? undefined : host }
}

async function sendWithAccount(message: EmailMessage, account: SmtpAccount) {
  const { address, servername } = await smtpAddress(account)
  const transport = nodemailer.createTransport({
    host: address,
    port: account.port,
    secure: account.secure,
    auth: account.username ? { user: account.username, pass: account.password ?? '' } : undefined,
    tls: servername ? { servername } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  })
  try {
    await transport.sendMail({
      from: account.from.name
        ? { name: account.from.name, address: account.from.address }
        : account.from.address,
      to: message.to,
      cc: message.cc,
      bcc: message.bcc,
      replyTo: message.replyTo,
      subject: message.subject,
      text: message.text,
      html: message.html,
      attachments: (message.attachments ?? []).map((file) => ({
        filename: file.filename,
        content: Buffer.from(file.content),
        contentType: file.contentType,
      })),
    })
  } finally {
    transport.close()
  }
}

/**
 * Sends one message to several recipients (cc, bcc and reply-to included) through SMTP when
 * it is configured; otherwise one copy per distinct recipient goes to the dev mailbox, as
 * delivery would. Plugins reach it through `#sdk/mail` (the SDK's MailPort).
 */
export async function sendEmail(
  message: EmailMessage,
  options: { account?: SmtpAccount } = {}
): Promise<{ transport: EmailTransport }> {
  const cc = message.cc ?? []
  const bcc = message.bcc ?? []
  const attachments = message.attachments ?? []
  if (options.account) {
    await sendWithAccount(message, options.account)
    return { transport: 'workspace-smtp' }
  }
  if (smtpConfigured()) {
    // sendMail's message has no cc, bcc or reply-to: SMTP takes them here.
    await mail.send((m) => {
      for (const address of message.to) m.to(address)
      if (cc.length > 0) m.cc(cc)
      if (bcc.length > 0) m.bcc(bcc)
      if (message.replyTo) m.replyTo(message.replyTo)
      m.subject(message.subject).text(message.text)
      if (message.html !== undefined) m.html(message.html)
      for (const file of attachments) {
        m.attachData(Buffer.from(file.content), {
          filename: file.filename,
          contentType: file.contentType,
        })
      }
    })
    return { transport: 'smtp' }
  }
  // The dev mailbox keeps text and HTML only: attachments are named at the end of the text.
  const listed = attachments.length
    ? `\n\nAttachments: ${attachments.map((file) => `${file.filename} (${file.content.length} bytes)`).join(', ')}`
    : ''
  for (const address of new Set([...message.to, ...cc, ...bcc])) {
    await sendMail({
      to: address,
      subject: message.subject,
      text: message.text + listed,
      html: message.html,
    })
  }
  return { transport: 'dev-mailbox' }
}
