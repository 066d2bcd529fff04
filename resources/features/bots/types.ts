import type { ToastDto } from '#shared/types'

/**
 * The props of the "My bots" dashboard (DashboardController.index, built by app/dtos/bot_dto).
 */
export interface FolderDto {
  id: string
  name: string
  parentFolderId: string | null
  createdAt: string
  /** Shared with chosen members only (docs/folder_sharing.md). */
  isRestricted: boolean
  /** The viewer's access (dashboard folders only): view access changes nothing inside. */
  access?: 'view' | 'edit'
  /** Whether the viewer manages its sharing (its creator or a workspace admin). */
  canShare?: boolean
}

export interface BotSummaryDto {
  id: string
  name: string
  icon: string | null
  folderId: string | null
  publicId: string | null
  isPublished: boolean
  isArchived: boolean
  isClosed: boolean
  createdAt: string
  updatedAt: string
}

export interface Breadcrumb {
  id: string
  name: string
}

export interface DashboardProps {
  folders: FolderDto[]
  allFolders: FolderDto[]
  bots: BotSummaryDto[]
  currentFolder: FolderDto | null
  breadcrumbs: Breadcrumb[]
  canUseFolders: boolean
  canShareFolders: boolean
  /** Opened at /bots/create: the creation dialog shows at once. */
  openCreate?: boolean
}

/** What a bot card's status badge says. */
export type BotStatus = 'closed' | 'published' | 'draft'

export function botStatus(bot: Pick<BotSummaryDto, 'isClosed' | 'isPublished'>): BotStatus {
  if (bot.isClosed) return 'closed'
  return bot.isPublished ? 'published' : 'draft'
}

/** The dashboard's URL for a folder (null: the top level). */
export function folderHref(folderId: string | null) {
  return folderId ? `/bots?folderId=${encodeURIComponent(folderId)}` : '/bots'
}

/** Every folder once, depth first and by name, with its depth (for the "Move to folder" list). */
export function folderTree(folders: FolderDto[]): { folder: FolderDto; depth: number }[] {
  const ids = new Set(folders.map((f) => f.id))
  const children = new Map<string | null, FolderDto[]>()
  for (const folder of folders) {
    // A parent outside the list (should not happen) puts the folder at the top.
    const parent =
      folder.parentFolderId && ids.has(folder.parentFolderId) ? folder.parentFolderId : null
    children.set(parent, [...(children.get(parent) ?? []), folder])
  }
  const out: { folder: FolderDto; depth: number }[] = []
  const seen = new Set<string>()
  const walk = (parent: string | null, depth: number) => {
    const list = [...(children.get(parent) ?? [])].sort((a, b) => a.name.localeCompare(b.name))
    for (const folder of list) {
      if (seen.has(folder.id)) continue
      seen.add(folder.id)
      out.push({ folder, depth })
      walk(folder.id, depth + 1)
    }
  }
  walk(null, 0)
  return out
}

/** A visit that came back without a field error or an error toast from the server. */
export function visitSucceeded(page: { props: unknown }) {
  const props = page.props as { errors?: Record<string, string>; toast?: ToastDto | null }
  return Object.keys(props.errors ?? {}).length === 0 && props.toast?.type !== 'error'
}
