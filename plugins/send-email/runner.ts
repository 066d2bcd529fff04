import type { Runner, RunnerContext } from '#sdk/plugin'
import { sendEmail, type EmailAttachment, type SmtpAccount } from '#sdk/mail'
import type plugin from './index.js'

/** One address, without a display name: what builders type and variables hold. */
const ADDRESS = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:".]+$/

/** At most this many attachments, of this many bytes in all (what mail servers take). */
export const MAX_ATTACHMENTS = 10
export const MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024

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

/** The workspace's SMTP account from the picked credentials, or undefined for the app's. */
function accountOf(credentials: Record<string, unknown>): SmtpAccount | undefined {
  const host = String(credentials.host ?? '').trim()
  if (!host) return undefined
  const fromEmail = String(credentials.fromEmail ?? '').trim()
  if (!ADDRESS.test(fromEmail)) {
    throw new Error(`Send e-mail: the SMTP account's From e-mail "${fromEmail}" is not valid`)
  }
  const port = Number(credentials.port ?? 587)
  return {
    host,
    port: Number.isInteger(port) && port > 0 ? port : 587,
    secure: credentials.secure === true || credentials.secure === 'true',
    username: String(credentials.username ?? '').trim() || undefined,
    password: credentials.password ? String(credentials.password) : undefined,
    from: { address: fromEmail, name: String(credentials.fromName ?? '').trim() || undefined },
  }
}

/** The URLs a variable holds: one URL, a list, or a comma-separated text. */
function urlsOf(value: unknown): string[] {
  const items = Array.isArray(value) ? value : String(value ?? '').split(/[\s,]+/)
  return items.map((item) => String(item ?? '').trim()).filter((item) => /^https?:\/\//.test(item))
}

/**
 * The files behind the URLs: the app's own stored files are read from storage (private ones
 * of this workspace included), others fetched through the guarded HTTP client.
 */
async function attachmentsOf(context: RunnerContext, urls: string[]) {
  if (urls.length > MAX_ATTACHMENTS) {
    throw new Error(`Send e-mail: at most ${MAX_ATTACHMENTS} attachments (got ${urls.length})`)
  }
  const files: EmailAttachment[] = []
  let total = 0
  for (const url of urls) {
    let file = await context.storage.read(url)
    let contentType: string | undefined
    if (!file) {
      const response = await context.http.request(url, { signal: context.signal })
      if (!response.ok) {
        throw new Error(`Send e-mail: the attachment ${url} could not be read (${response.status})`)
      }
      contentType = response.headers.get('content-type') ?? undefined
      const name = decodeURIComponent(new URL(url).pathname.split('/').pop() || 'attachment')
      file = { bytes: new Uint8Array(await response.arrayBuffer()), name }
    }
    total += file.bytes.length
    if (total > MAX_ATTACHMENT_BYTES) throw new Error('Send e-mail: the attachments exceed 20 MB')
    files.push({ filename: file.name, content: file.bytes, contentType })
  }
  return files
}

/**
 * Sends through the picked SMTP account, else the app's mailer. In a bot a failure is logged
 * and the flow goes on; in a workflow it fails the node (its retry settings apply).
 */
export const run: Runner<typeof plugin> = async (context) => {
  const { options, logger, credentials, variables } = context
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
  const account = accountOf(credentials)
  const urls = options.attachmentsVariableId
    ? urlsOf(variables.get(options.attachmentsVariableId))
    : []
  const attachments = await attachmentsOf(context, urls)

  const { transport } = await sendEmail(
    { to, cc, bcc, replyTo, subject, text, html, attachments },
    { account }
  )
  logger.success(`E-mail "${subject}" sent to ${[...to, ...cc].join(', ')}`)
  return {
    output: {
      to,
      cc,
      bcc,
      subject,
      transport,
      attachments: attachments.map((file) => file.filename),
    },
  }
}
