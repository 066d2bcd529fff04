import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import { dispatch } from '#queue/queue'
import type { IncomingMessage } from './conversation.js'
import type { IncomingMedia, MediaKind } from './media.js'

/**
 * The messages a channel contact sends at once, held for a moment in the database
 * (docs/channels.md, "Several files at once"). Each part is a row; the first one queues a
 * delayed job for the contact, which waits until no part came for the window, takes every
 * row not taken yet and answers them (app/services/channels/jobs.ts). Rows live in the
 * database and the job on the app's queue, so parts reaching different web processes end
 * up in one answer.
 */

export const HELD_MESSAGES_JOB = 'channels.held-messages'

/** How long after a contact's last file the files are answered, when not configured. */
export const DEFAULT_FILES_WINDOW_MS = 1500

/** A contact who keeps sending is answered at the latest this many windows after the first. */
export const MAX_WINDOWS = 8

/** A job run that took rows and died: after this long another run takes them over. */
export const STALE_CLAIM_MS = 60_000

export function filesWindowMs() {
  const configured = Number(env.get('CHANNEL_FILES_WINDOW_MS'))
  return Number.isFinite(configured) && configured >= 0 ? configured : DEFAULT_FILES_WINDOW_MS
}

/** What a held row keeps of a message: its file as the id the platform gave, not the bytes. */
export interface HeldMessage {
  deliveryId: string
  text: string
  contact?: IncomingMessage['contact']
  groupId?: string
  media?: {
    kind: MediaKind
    id: string
    size?: number
    fileName?: string
    mimeType?: string
  }
}

export interface HeldRow {
  id: number
  message: HeldMessage
  heldMs: number
}

export function heldMessageOf(message: IncomingMessage): HeldMessage {
  const media = message.media
  return {
    deliveryId: message.deliveryId,
    text: message.text,
    contact: message.contact,
    groupId: message.groupId,
    media: media && {
      kind: media.kind,
      id: media.id,
      size: media.size,
      fileName: media.fileName,
      mimeType: media.mimeType,
    },
  }
}

/** The message again, its file downloadable through the platform of the channel. */
export function incomingOfHeld(
  held: HeldMessage,
  contactId: string,
  download: (mediaId: string, maxBytes: number) => ReturnType<IncomingMedia['download']>
): IncomingMessage {
  const media = held.media
  return {
    deliveryId: held.deliveryId,
    contactId,
    contact: held.contact,
    text: held.text,
    groupId: held.groupId,
    media: media && { ...media, download: (maxBytes) => download(media.id, maxBytes) },
  }
}

function jobIdOf(channelId: string, contactId: string, firstRowId: number) {
  return `channel-held:${channelId}:${contactId}:${firstRowId}`
}

function unclaimed(channelId: string, contactId: string, now = Date.now()) {
  return db
    .from('channel_held_messages')
    .where({ channel_id: channelId, contact_id: contactId })
    .whereNull('done_ms')
    .where((query) => query.whereNull('claim').orWhere('claimed_ms', '<', now - STALE_CLAIM_MS))
}

/** True while some of the contact's messages wait for their job (taken or not yet). */
export async function hasHeldMessages(channelId: string, contactId: string) {
  const row = await db
    .from('channel_held_messages')
    .where({ channel_id: channelId, contact_id: contactId })
    .whereNull('done_ms')
    .select('id')
    .first()
  return Boolean(row)
}

/** True when a job has taken parts of this album already. */
export async function albumTaken(channelId: string, contactId: string, groupId: string) {
  const row = await db
    .from('channel_held_messages')
    .where({ channel_id: channelId, contact_id: contactId, media_group_id: groupId.slice(0, 191) })
    .whereNotNull('claim')
    .select('id')
    .first()
  return Boolean(row)
}

/**
 * Holds the message and queues the contact's job. The job's id is that of the oldest row
 * not taken yet: the parts of one burst queue one job, and a part arriving after the job
 * took the others (that row is then the oldest) queues the next one.
 */
export async function holdMessage(channelId: string, message: IncomingMessage) {
  const held = heldMessageOf(message)
  await db.table('channel_held_messages').insert({
    channel_id: channelId,
    contact_id: message.contactId,
    delivery_id: message.deliveryId.slice(0, 191),
    media_group_id: message.groupId?.slice(0, 191) ?? null,
    message: JSON.stringify(held),
    held_ms: Date.now(),
  })
  const first = await unclaimed(channelId, message.contactId).orderBy('id').select('id').first()
  if (!first) return
  await dispatch(
    HELD_MESSAGES_JOB,
    { channelId, contactId: message.contactId },
    {
      jobId: jobIdOf(channelId, message.contactId, Number(first.id)),
      delayMs: filesWindowMs(),
      attempts: 3,
      backoffMs: 1000,
    }
  )
}

/**
 * Queues the job of every contact with messages still held: the in-process queue keeps its
 * delayed jobs in memory, so a process that stopped left them without one (start/channels.ts).
 */
export async function resumeHeldMessages() {
  const contacts = await db
    .from('channel_held_messages')
    .whereNull('done_ms')
    .groupBy('channel_id', 'contact_id')
    .select('channel_id', 'contact_id')
    .min('id as first_id')
  for (const contact of contacts) {
    await dispatch(
      HELD_MESSAGES_JOB,
      { channelId: contact.channel_id, contactId: contact.contact_id },
      {
        jobId: jobIdOf(contact.channel_id, contact.contact_id, Number(contact.first_id)),
        attempts: 3,
        backoffMs: 1000,
      }
    )
  }
  return contacts.length
}

function rowOf(row: Record<string, any>): HeldRow {
  return { id: Number(row.id), message: JSON.parse(row.message), heldMs: Number(row.held_ms) }
}

/**
 * How long the rows not taken yet still wait: 0 when the window has passed since the
 * newest one (or since the oldest, MAX_WINDOWS times over); null when there are none.
 */
export async function heldWaitMs(channelId: string, contactId: string, now = Date.now()) {
  const rows = (await unclaimed(channelId, contactId, now).select('held_ms')).map((row) =>
    Number(row.held_ms)
  )
  if (rows.length === 0) return null
  const window = filesWindowMs()
  const newest = Math.max(...rows)
  const oldest = Math.min(...rows)
  if (now - oldest >= window * MAX_WINDOWS) return 0
  return Math.max(0, window - (now - newest))
}

/**
 * Takes every row of the contact not taken yet for this run (one update: two runs never
 * take the same row), in the order they came.
 */
export async function claimHeldMessages(
  channelId: string,
  contactId: string,
  claim: string
): Promise<HeldRow[]> {
  const now = Date.now()
  await unclaimed(channelId, contactId, now).update({ claim, claimed_ms: now })
  const rows = await db
    .from('channel_held_messages')
    .where({ channel_id: channelId, contact_id: contactId, claim })
    .whereNull('done_ms')
    .orderBy('id')
  return rows.map(rowOf)
}

export async function markHeldDone(ids: number[]) {
  if (ids.length === 0) return
  await db.from('channel_held_messages').whereIn('id', ids).update({ done_ms: Date.now() })
}

/** A run that failed gives back what it did not answer, for its next attempt. */
export async function releaseHeldMessages(claim: string) {
  await db
    .from('channel_held_messages')
    .where('claim', claim)
    .whereNull('done_ms')
    .update({ claim: null, claimed_ms: null })
}

/** The contact's rows a job gave up on are dropped, so they do not hold later messages. */
export async function dropHeldMessages(channelId: string, contactId: string) {
  await db
    .from('channel_held_messages')
    .where({ channel_id: channelId, contact_id: contactId })
    .whereNull('done_ms')
    .update({ done_ms: Date.now() })
}

/** Forgets rows answered before the given time (with the delivery ids). */
export async function pruneHeldMessages(beforeMs: number) {
  await db
    .from('channel_held_messages')
    .where('held_ms', '<', beforeMs)
    .whereNotNull('done_ms')
    .delete()
}

/**
 * The held rows in turns: consecutive files answer together, any other message is a turn
 * of its own.
 */
export function turnsOf(rows: HeldRow[]): HeldRow[][] {
  const turns: HeldRow[][] = []
  for (const row of rows) {
    const last = turns.at(-1)
    if (row.message.media && last?.[0].message.media) last.push(row)
    else turns.push([row])
  }
  return turns
}
