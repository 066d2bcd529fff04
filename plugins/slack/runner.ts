import type { Runner } from '#sdk/plugin'
import { callSlack } from '#sdk/slack'
import { slackUserLimit } from '#sdk/slack_users'
import type plugin from './index.js'

/** Slack's limit on a message's text (characters); longer texts are refused as msg_too_long. */
const TEXT_MAX = 40_000
/** Files are read into memory before the upload: larger ones are refused here. */
export const FILE_MAX_BYTES = 20 * 1024 * 1024

const TS = /^\d+\.\d+$/

function required(value: string | undefined, what: string) {
  const text = value?.trim()
  if (!text) throw new Error(`Slack: the ${what} is empty`)
  return text
}

function threadOf(value: string | undefined) {
  const ts = value?.trim()
  if (!ts) return undefined
  if (!TS.test(ts)) throw new Error(`Slack: "${ts}" is not a message ts (like 1700000000.000100)`)
  return ts
}

function textOf(value: string | undefined) {
  const text = required(value, 'text')
  if (text.length > TEXT_MAX) {
    throw new Error(`Slack: the text has ${text.length} characters (at most ${TEXT_MAX})`)
  }
  return text
}

interface Posted {
  channel: string
  ts: string
}

const postMessage: Runner<typeof plugin, 'Post a message'> = async (context) => {
  const { options, credentials, http, signal, logger } = context
  const posted = await callSlack<Posted>(
    credentials,
    'chat.postMessage',
    { http, signal },
    {
      channel: required(options.channel, 'channel'),
      text: textOf(options.text),
      unfurl_links: options.unfurlLinks !== false,
    }
  )
  logger.success(`Message posted in ${posted.channel}`)
  return { output: { channel: posted.channel, ts: posted.ts } }
}

const replyInThread: Runner<typeof plugin, 'Reply in a thread'> = async (context) => {
  const { options, credentials, http, signal, logger } = context
  const threadTs = threadOf(options.threadTs)
  if (!threadTs) throw new Error('Slack: the thread is empty')
  const posted = await callSlack<Posted>(
    credentials,
    'chat.postMessage',
    { http, signal },
    {
      channel: required(options.channel, 'channel'),
      text: textOf(options.text),
      thread_ts: threadTs,
      reply_broadcast: options.alsoSendToChannel === true ? true : undefined,
    }
  )
  logger.success(`Reply posted in ${posted.channel}`)
  return { output: { channel: posted.channel, ts: posted.ts, threadTs } }
}

/** The file's bytes and a name for it (from the option, else the URL's last segment). */
async function download(
  context: Parameters<Runner<typeof plugin, 'Upload a file'>>[0],
  url: string
) {
  const response = await context.http.request(url, { signal: context.signal })
  if (!response.ok) throw new Error(`Slack: the file could not be read (${response.status})`)
  const declared = Number(response.headers.get('content-length') ?? 0)
  if (declared > FILE_MAX_BYTES) throw new Error('Slack: the file is larger than 20 MB')
  const bytes = new Uint8Array(await response.arrayBuffer())
  if (bytes.length > FILE_MAX_BYTES) throw new Error('Slack: the file is larger than 20 MB')
  if (bytes.length === 0) throw new Error('Slack: the file is empty')
  const fromUrl = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '')
  const name = context.options.fileName?.trim() || fromUrl || 'file'
  return { bytes, name }
}

/**
 * Slack's upload in three steps: files.getUploadURLExternal (name, length) gives an upload
 * URL and a file id; the bytes go to that URL; files.completeUploadExternal shares the file
 * in the channel (with the message and thread, if any).
 */
const uploadFile: Runner<typeof plugin, 'Upload a file'> = async (context) => {
  const { options, credentials, http, signal, logger } = context
  const channel = required(options.channel, 'channel')
  const threadTs = threadOf(options.threadTs)
  const { bytes, name } = await download(context, required(options.fileUrl, 'file URL'))
  const io = { http, signal }
  const target = await callSlack<{ upload_url: string; file_id: string }>(
    credentials,
    'files.getUploadURLExternal',
    io,
    { filename: name, length: bytes.length }
  )
  const sent = await http.request(target.upload_url, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream' },
    body: bytes,
    signal,
  })
  if (!sent.ok) throw new Error(`Slack refused the file's bytes (${sent.status})`)
  const title = options.title?.trim() || name
  await callSlack(credentials, 'files.completeUploadExternal', io, {
    files: JSON.stringify([{ id: target.file_id, title }]),
    channel_id: channel,
    initial_comment: options.initialComment?.trim() || undefined,
    thread_ts: threadTs,
  })
  logger.success(`File ${name} shared in ${channel}`)
  return { output: { fileId: target.file_id, channel, name, bytes: bytes.length } }
}

const USER_ID = /^[UW][A-Z0-9]{2,}$/

/** The member IDs of the option, split on commas or spaces, each once, in order. */
export function usersOf(value: string | undefined) {
  const ids = [...new Set((value ?? '').split(/[\s,;]+/).filter(Boolean))]
  if (ids.length === 0) throw new Error('Slack: no user to send to')
  const wrong = ids.find((id) => !USER_ID.test(id))
  if (wrong) throw new Error(`Slack: "${wrong}" is not a member ID (like U0123456789)`)
  const limit = slackUserLimit()
  if (ids.length > limit) {
    throw new Error(
      `Slack: ${ids.length} users given, at most ${limit} per node (SLACK_USER_LIMIT); nothing was sent`
    )
  }
  return ids
}

/**
 * conversations.open gives the app's direct conversation with a member (the same one each
 * time), then chat.postMessage posts in it. The users are checked and counted before the
 * first message so that a list over the limit sends nothing rather than half.
 */
const directMessage: Runner<typeof plugin, 'Send a direct message'> = async (context) => {
  const { options, credentials, http, signal, logger } = context
  const users = usersOf(options.users)
  const text = textOf(options.text)
  const io = { http, signal }
  const messages: { user: string; channel: string; ts: string }[] = []
  for (const user of users) {
    const opened = await callSlack<{ channel: { id: string } }>(
      credentials,
      'conversations.open',
      io,
      { users: user }
    )
    const posted = await callSlack<Posted>(credentials, 'chat.postMessage', io, {
      channel: opened.channel.id,
      text,
    })
    messages.push({ user, channel: posted.channel, ts: posted.ts })
  }
  logger.success(`Direct message sent to ${users.length} user${users.length === 1 ? '' : 's'}`)
  return { output: { messages } }
}

export default {
  'Post a message': postMessage,
  'Reply in a thread': replyInThread,
  'Upload a file': uploadFile,
  'Send a direct message': directMessage,
}
