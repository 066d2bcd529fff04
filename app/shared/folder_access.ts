/** A member's access to a folder shared with chosen people (docs/folder_sharing.md). */
export const FOLDER_ACCESS_LEVELS = ['view', 'edit'] as const
export type FolderAccess = (typeof FOLDER_ACCESS_LEVELS)[number]
