/**
 * Workspace member roles, the three levels a workspace gives its members:
 * ADMIN manages the workspace, its members and billing and edits everything;
 * MEMBER edits bots and workflows (user mode "write");
 * GUEST only views them (user mode "read").
 */
export const WORKSPACE_ROLES = ['ADMIN', 'MEMBER', 'GUEST'] as const
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number]

export type UserMode = 'write' | 'read' | 'guest'

export function userModeForRole(role: WorkspaceRole | null | undefined): UserMode {
  if (role === 'ADMIN' || role === 'MEMBER') return 'write'
  if (role === 'GUEST') return 'read'
  return 'guest'
}

export const LANGUAGES = ['en', 'fr', 'de', 'pt', 'pt-BR', 'es', 'ro', 'it', 'el'] as const
export type Language = (typeof LANGUAGES)[number]

export const APPEARANCES = ['system', 'light', 'dark'] as const
export type Appearance = (typeof APPEARANCES)[number]

export const GRAPH_NAVIGATIONS = ['mouse', 'trackpad'] as const
export type GraphNavigation = (typeof GRAPH_NAVIGATIONS)[number]
