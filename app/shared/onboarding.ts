/**
 * The onboarding checklist and the support widget (docs/onboarding.md), as the browser sees
 * them. Shared by the server and the client.
 */

/** The checklist's steps, in the order shown. */
export const CHECKLIST_ITEMS = [
  'createBot',
  'publishBot',
  'createWorkflow',
  'activateWorkflow',
  'createKnowledgeStore',
  'inviteMember',
] as const
export type ChecklistItemId = (typeof CHECKLIST_ITEMS)[number]

export interface ChecklistItemDto {
  id: ChecklistItemId
  done: boolean
  /** Where the step is done. */
  href: string
}

export interface OnboardingChecklistDto {
  items: ChecklistItemDto[]
  completed: number
  total: number
}

/**
 * The variables the support bot receives: a support bot
 * declares variables of these names to read them. `botId`, the bot of the page the chat is
 * opened on ('' elsewhere), is added by the browser.
 */
export interface SupportPrefill {
  userId: string
  firstName: string
  email: string
  avatarUrl: string
  planLabel: string
  workspaceId: string
}

/** The bubble of the app's own support bot, on paid plans when configured. */
export interface SupportWidgetDto {
  publicId: string
  /** The bot-viewer host serving /embed.js and the bot. */
  viewerUrl: string
  prefilledVariables: SupportPrefill
}
