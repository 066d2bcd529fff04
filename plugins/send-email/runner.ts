import type { WorkflowRunner } from '#sdk/runner'
import { sendEmail } from '#sdk/mail'
import type plugin from './index.js'

/** One address, without a display name: what builders type and variables hold. */
const ADDRESS = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:".]+$/

/** "a@x.com, b@y.com" (commas or semicolons) as a list, each checked. */
export function parseAddresses(text: string | undefined, label: string): string[] {
  const list = (text ?? '')
    .split(/[,;]/)
    .map((part) => part.trim())
    .filter(Boolean)
  for (const address of list) {
    if (!ADDRESS.test(address))
      throw new Error(`Send e-mail: "${address}" in ${label} is not an e-mail address`)
  }
  return list
}

/** The text part of an HTML body, for mail clients that show text only. */
function textOf(html: string) {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>|<\/(p|div|li|h[1-6]|tr)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

/**
 * Sends through SMTP when SMTP_HOST is set; otherwise the application mailer keeps the mail
 * in the dev mailbox, one copy per recipient (to, cc and bcc), as delivery would.
 */
export const run: WorkflowRunner<typeof plugin> = async ({ options, logger }) => {
  const to = parseAddresses(options.to, 'To')
  if (to.length === 0) throw new Error('Send e-mail: no recipient')
  const cc = parseAddresses(options.cc, 'Cc')
  const bcc = parseAddresses(options.bcc, 'Bcc')
  const [replyTo] = parseAddresses(options.replyTo, 'Reply to')
  const subject = options.subject?.trim() ?? ''
  if (!subject) throw new Error('Send e-mail: the subject is empty')
  const body = options.body ?? ''
  const html = options.bodyType === 'html' ? body : undefined
  const text = html === undefined ? body : textOf(html)

  const { transport } = await sendEmail({ to, cc, bcc, replyTo, subject, text, html })
  logger.success(`E-mail "${subject}" sent to ${[...to, ...cc].join(', ')}`)
  return { output: { to, cc, bcc, subject, transport } }
}
