import { appPort } from './port.js'

/**
 * `@flowcraft/sdk/mail` (server; `#sdk/mail` in the app): outgoing e-mail for plugins, through
 * the app's SMTP settings (or the dev mailbox when SMTP is not configured), or through a
 * workspace's own SMTP account (the e-mail block's credentials). The transports are the app's:
 * sending asks it through the port.
 */

export interface EmailAttachment {
  filename: string
  content: Uint8Array
  contentType?: string
}

export interface EmailMessage {
  to: string[]
  cc?: string[]
  bcc?: string[]
  replyTo?: string
  subject: string
  text: string
  html?: string
  attachments?: EmailAttachment[]
}

/** A workspace's own SMTP server (the e-mail block's credentials), instead of the app's. */
export interface SmtpAccount {
  host: string
  port: number
  /** TLS from the start (port 465); otherwise STARTTLS when the server offers it. */
  secure: boolean
  username?: string
  password?: string
  from: { address: string; name?: string }
  /** Let the host be a private or loopback address; defaults to ALLOW_INTERNAL_HTTP. */
  allowInternal?: boolean
}

/** Which way a message left: the app's SMTP, the workspace's, or the dev mailbox. */
export type EmailTransport = 'smtp' | 'workspace-smtp' | 'dev-mailbox'

/** The app's side of `@flowcraft/sdk/mail` (see port.ts). */
export interface MailPort {
  sendEmail(
    message: EmailMessage,
    options?: { account?: SmtpAccount }
  ): Promise<{ transport: EmailTransport }>
  smtpConfigured(): boolean
}

/**
 * Sends one message to several recipients (cc, bcc and reply-to included) through SMTP when
 * it is configured; otherwise one copy per distinct recipient goes to the dev mailbox, as
 * delivery would. With `account`, through that server instead (an internal address is
 * refused unless it allows it).
 */
export async function sendEmail(
  message: EmailMessage,
  options: { account?: SmtpAccount } = {}
): Promise<{ transport: EmailTransport }> {
  return appPort('mail').sendEmail(message, options)
}

/** Whether the operator configured SMTP (else mail goes to the dev mailbox). */
export function smtpConfigured(): boolean {
  return appPort('mail').smtpConfigured()
}
