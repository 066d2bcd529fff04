import type { BlockIssue } from '#shared/block_issues'
import type { WorkflowStatus } from '#shared/workflow/types'

/**
 * What the browser and the server say to each other about a shared draft (docs/editor.md
 * "Editing together"): the channel names and the messages broadcast on them.
 */

export const COEDIT_KINDS = ['bots', 'workflows'] as const
export type CoeditKind = (typeof COEDIT_KINDS)[number]

/** One channel per draft: its updates and its people's presence. */
export const DOCUMENT_CHANNEL_PATTERN = 'coedit/:kind/:id'
/** One channel per person: told when their access ends. */
export const PERSON_CHANNEL_PATTERN = 'coedit-people/:id'

export function documentChannel(kind: CoeditKind, id: string) {
  return `coedit/${kind}/${id}`
}

export function personChannel(userId: string) {
  return `coedit-people/${userId}`
}

/** Where someone is and what they do: sent by each editor, relayed with who they are. */
export interface PresenceState {
  /** Their pointer on the canvas, in the canvas's coordinates. */
  cursor?: { x: number; y: number } | null
  /** The block or node whose settings they have open. */
  editing?: string | null
  /** What they see of the canvas (to follow them). */
  viewport?: { x: number; y: number; zoom: number } | null
  /** They left the editor. */
  gone?: boolean
}

export type CoeditMessage =
  | {
      type: 'update'
      /** A Yjs update, base64. */
      update: string
      /** The editor that sent it (null: the server, folding in a draft written elsewhere). */
      clientId: string | null
      /** 'copilot' when the assistant made the change. */
      by: 'person' | 'copilot' | 'elsewhere'
    }
  | {
      type: 'presence'
      clientId: string
      userId: string
      name: string
      color: string
      state: PresenceState
      /** The AI copilot, not a person: shown as such, and never followed. */
      copilot?: boolean
    }
  | { type: 'revoked'; workspaceId: string }
  | {
      /** The merged draft was written: its issues (marked on blocks and nodes) and revision. */
      type: 'issues'
      issues: BlockIssue[]
      revision: number
      /** A workflow's status as written (an edit of a published one makes it DRAFT again). */
      meta?: DraftMeta
    }

/** The fields of a written workflow its editor's header shows. */
export interface DraftMeta {
  status: WorkflowStatus
  isActive: boolean
  publishedAt: string | null
  updatedAt: string
}

/**
 * The copilot's presence in a draft's editors (docs/editor.md "The copilot in a shared
 * draft"): one per draft, whoever asked it, in a colour of its own (none of the people's).
 */
export const COPILOT_CLIENT_ID = 'copilot'
export const COPILOT_COLOR = '#7c3aed'

/** Twelve colours apart enough to tell people by, readable on light and dark canvases. */
const COLORS = [
  '#e11d48',
  '#2563eb',
  '#16a34a',
  '#d97706',
  '#9333ea',
  '#0891b2',
  '#db2777',
  '#65a30d',
  '#dc2626',
  '#4f46e5',
  '#0d9488',
  '#c2410c',
]

/** A person's colour: the same in every editor and every session. */
export function colorOf(userId: string) {
  let hash = 0
  for (const char of userId) hash = (hash * 31 + char.charCodeAt(0)) | 0
  return COLORS[Math.abs(hash) % COLORS.length]
}
