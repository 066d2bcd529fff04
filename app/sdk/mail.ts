/**
 * `#sdk/mail`: outgoing e-mail for plugins, through the app's SMTP settings (or the dev
 * mailbox when SMTP is not configured), or through a workspace's own SMTP account (the e-mail
 * block's credentials). Server only.
 */
export {
  sendEmail,
  smtpConfigured,
  type EmailMessage,
  type EmailAttachment,
  type SmtpAccount,
} from '../services/mailer.js'
