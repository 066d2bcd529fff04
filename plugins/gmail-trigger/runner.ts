import type {
  EventTriggerContext,
  OnActivate,
  Poll,
  PollEveryMs,
  WorkflowRunner,
} from '#sdk/runner'
import { gmailGet } from './api.js'
import type plugin from './index.js'

/**
 * What a poll keeps: `since` is the newest arrival time seen (ms), `seen` the ids already
 * reported or there at activation. Each poll lists the messages that arrived up to
 * WINDOW_MS before `since` (Gmail's `after:` has second precision, and mail can be
 * delivered late or clocks differ), and the ids seen cover that window, so a message is
 * reported once even when the list returns it again.
 */
export interface GmailState {
  since: number
  seen: string[]
}

const WINDOW_MS = 60 * 60_000
const MAX_SEEN = 2000
const PAGE_SIZE = 100
const MAX_PAGES = 5
/** More new messages than this wait for the next poll, oldest first. */
const MAX_NEW_PER_POLL = 50
const HEADERS = ['From', 'To', 'Subject', 'Date']

interface GmailMessage {
  id: string
  threadId: string
  labelIds?: string[]
  snippet?: string
  internalDate?: string
  payload?: { headers?: { name: string; value: string }[] }
}

function searchOf(options: Record<string, unknown>, since: number) {
  const filter = String(options.query ?? '').trim()
  const after = `after:${Math.floor((since - WINDOW_MS) / 1000)}`
  return filter ? `${filter} ${after}` : after
}

/** The ids matching the search, newest first as Gmail lists them. */
async function listIds(ctx: EventTriggerContext, q: string) {
  const ids: string[] = []
  let pageToken: string | undefined
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = new URLSearchParams({ q, maxResults: String(PAGE_SIZE) })
    if (pageToken) query.set('pageToken', pageToken)
    const answer = await gmailGet<{ messages?: { id: string }[]; nextPageToken?: string }>(
      ctx.credentials,
      'messages',
      query,
      ctx
    )
    ids.push(...(answer.messages ?? []).map((message) => message.id))
    pageToken = answer.nextPageToken
    if (!pageToken) break
  }
  return ids
}

async function fetchMessage(ctx: EventTriggerContext, id: string) {
  const query = new URLSearchParams({ format: 'metadata' })
  for (const header of HEADERS) query.append('metadataHeaders', header)
  return gmailGet<GmailMessage>(ctx.credentials, `messages/${encodeURIComponent(id)}`, query, ctx)
}

/** The run's input: the message's headers that matter, without its body. */
export function messageInput(message: GmailMessage) {
  const header = (name: string) =>
    message.payload?.headers?.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value ??
    null
  const received = Number(message.internalDate)
  return {
    id: message.id,
    threadId: message.threadId,
    from: header('From'),
    to: header('To'),
    subject: header('Subject'),
    snippet: message.snippet ?? '',
    date: Number.isFinite(received) && received > 0 ? new Date(received).toISOString() : null,
    labels: message.labelIds ?? [],
  }
}

export const pollEveryMs: PollEveryMs = (options) => {
  const minutes = Math.trunc(Number(options.pollMinutes ?? 1))
  return (Number.isFinite(minutes) ? Math.min(Math.max(minutes, 1), 59) : 1) * 60_000
}

/** The messages there now: they start nothing. */
async function baseline(ctx: EventTriggerContext): Promise<GmailState> {
  const since = Date.now()
  const seen = await listIds(ctx, searchOf(ctx.options, since))
  return { since, seen: seen.slice(0, MAX_SEEN) }
}

/** The baseline is taken at activation, which checks the credentials too. */
export const onActivate: OnActivate = async (ctx) => ({ state: await baseline(ctx) })

export const poll: Poll<Record<string, unknown>, GmailState> = async (ctx) => {
  if (!ctx.state) {
    // No baseline (should not happen after onActivate): take one rather than run old mail.
    return { runInputs: [], state: await baseline(ctx) }
  }
  const known = new Set(ctx.state.seen)
  const ids = await listIds(ctx, searchOf(ctx.options, ctx.state.since))
  const fresh = ids
    .filter((id) => !known.has(id))
    .reverse()
    .slice(0, MAX_NEW_PER_POLL)
  const messages: GmailMessage[] = []
  for (const id of fresh) messages.push(await fetchMessage(ctx, id))
  messages.sort((a, b) => Number(a.internalDate ?? 0) - Number(b.internalDate ?? 0))
  const newest = Math.max(ctx.state.since, ...messages.map((m) => Number(m.internalDate) || 0))
  return {
    runInputs: messages.map(messageInput),
    state: { since: newest, seen: [...fresh, ...ctx.state.seen].slice(0, MAX_SEEN) },
  }
}

/** The message is the trigger's output ({{$input.subject}}, {{$input.from}}). */
export const run: WorkflowRunner<typeof plugin> = ({ workflow }) => ({
  output: workflow?.input ?? null,
})
