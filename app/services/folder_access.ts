import Folder from '#models/folder'
import FolderShare from '#models/folder_share'
import type { FolderAccess } from '#shared/folder_access'
import type { UserMode, WorkspaceRole } from '#shared/workspace_roles'

/**
 * Who sees which folder of a workspace (docs/folder_sharing.md). A folder that is not
 * restricted passes its parent's access on; a restricted one gives its creator edit access,
 * the members it is shared with their level, and hides itself from everyone else. A folder
 * is never more open than its parent, so hiding a folder hides everything inside it.
 * Workspace admins see and edit every folder.
 */
export class FolderVisibility {
  constructor(
    private readonly access: Map<string, FolderAccess> | 'all',
    private readonly known: Set<string>
  ) {}

  /** The access to a folder; null when it is hidden. A bot at the top level has no folder. */
  of(folderId: string | null): FolderAccess | null {
    if (folderId === null) return 'edit'
    if (this.access === 'all') return 'edit'
    // A folder of another workspace is none of this map's business: callers check the workspace.
    if (!this.known.has(folderId)) return 'edit'
    return this.access.get(folderId) ?? null
  }

  sees(folderId: string | null) {
    return this.of(folderId) !== null
  }

  /** The folder ids hidden from the user, for `whereNotIn` on lists. */
  hiddenIds(): string[] {
    const access = this.access
    if (access === 'all') return []
    return [...this.known].filter((id) => !access.has(id))
  }
}

const LEVEL: Record<FolderAccess, number> = { view: 1, edit: 2 }

export async function folderVisibilityFor(
  userId: string,
  workspaceId: string,
  role: WorkspaceRole | null
): Promise<FolderVisibility> {
  const folders = await Folder.query()
    .where('workspace_id', workspaceId)
    .select('id', 'parent_folder_id', 'is_restricted', 'created_by')
  const known = new Set(folders.map((f) => f.id))
  if (role === 'ADMIN' || !folders.some((f) => f.isRestricted)) {
    return new FolderVisibility('all', known)
  }
  const restricted = folders.filter((f) => f.isRestricted).map((f) => f.id)
  const shares = await FolderShare.query()
    .where('user_id', userId)
    .whereIn('folder_id', restricted)
    .select('folder_id', 'access')
  const shared = new Map(shares.map((s) => [s.folderId, s.access]))
  const byId = new Map(folders.map((f) => [f.id, f]))
  const access = new Map<string, FolderAccess>()
  const done = new Set<string>()

  const resolve = (id: string, seen: Set<string>): FolderAccess | null => {
    if (done.has(id)) return access.get(id) ?? null
    const folder = byId.get(id)!
    let own: FolderAccess | null = 'edit'
    if (folder.isRestricted && folder.createdBy !== userId) own = shared.get(id) ?? null
    let result = own
    const parentId = folder.parentFolderId
    // A parent cycle (the app refuses to make one) is cut where it loops.
    if (result && parentId && byId.has(parentId) && !seen.has(parentId)) {
      seen.add(id)
      const parent = resolve(parentId, seen)
      result = parent && LEVEL[parent] < LEVEL[result] ? parent : parent ? result : null
    }
    done.add(id)
    if (result) access.set(id, result)
    return result
  }
  for (const folder of folders) resolve(folder.id, new Set())
  return new FolderVisibility(access, known)
}

/** A workspace mode narrowed by the folder's access: view access only reads. */
export function modeInFolder(mode: UserMode, access: FolderAccess): UserMode {
  return access === 'view' && mode === 'write' ? 'read' : mode
}

/** The user's access to the folder a bot sits in; null when that folder is hidden from them. */
export async function folderAccessOnBot(
  userId: string,
  bot: { workspaceId: string; folderId: string | null },
  role: WorkspaceRole | null
): Promise<FolderAccess | null> {
  if (!bot.folderId || role === 'ADMIN') return 'edit'
  return (await folderVisibilityFor(userId, bot.workspaceId, role)).of(bot.folderId)
}
