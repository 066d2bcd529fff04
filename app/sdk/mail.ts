/**
 * `#sdk/mail`: outgoing e-mail for plugins, through the app's SMTP settings (or the dev
 * mailbox when SMTP is not configured). Server only.
 */
export { sendEmail, smtpConfigured, type EmailMessage } from '../services/mailer.js'
