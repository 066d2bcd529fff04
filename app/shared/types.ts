/**
 * Shapes sent to the browser (built by app/dtos). Shared by server and client.
 */
import type { PlanDefinition, PlanName } from './plans.js'
import type { PlanUsageDto } from './plan_admin.js'
import type { SupportWidgetDto } from './onboarding.js'
import type {
  Appearance,
  GraphNavigation,
  Language,
  UserMode,
  WorkspaceRole,
} from './workspace_roles.js'

export interface UserDto {
  id: string
  email: string
  name: string | null
  image: string | null
  graphNavigation: GraphNavigation
  preferredAppAppearance: Appearance
  preferredLanguage: Language
  plan: PlanName
  planEndsAt: string | null
  remainingDays: number | null
  isAdmin: boolean
  /** The user's two-factor flag: sign-ins ask for a code (docs/security.md). */
  twoFactorEnabled: boolean
  tourStatus: Record<string, boolean>
  onboardingChecklistDismissed: boolean
  createdAt: string
}

export interface WorkspaceSummaryDto {
  id: string
  name: string
  icon: string | null
  plan: PlanName
  role: WorkspaceRole
}

export interface WorkspaceDto extends WorkspaceSummaryDto {
  createdBy: string | null
  isOwner: boolean
  isSuspended: boolean
  isPastDue: boolean
  userMode: UserMode
  planEndsAt: string | null
  remainingDays: number | null
  createdAt: string
}

export interface MemberDto {
  userId: string
  email: string
  name: string | null
  image: string | null
  role: WorkspaceRole
  isOwner: boolean
  createdAt: string
}

export interface InvitationDto {
  id: string
  email: string
  role: WorkspaceRole
  createdAt: string
}

export interface ApiTokenDto {
  id: string
  name: string
  createdAt: string
  lastUsedAt: string | null
}

export interface ToastDto {
  type: 'success' | 'error' | 'info'
  title: string
  description?: string
}

export interface SharedProps {
  user: UserDto | null
  workspaces: WorkspaceSummaryDto[]
  currentWorkspace: WorkspaceDto | null
  toast: ToastDto | null
  errors: Record<string, string>
  /** The language chosen for this request (user preference, else Accept-Language). */
  locale: string
  devMailbox: boolean
  oauthProviders: ('github' | 'google')[]
  appVersion: string
  /** Where public bot pages and /embed.js are served (VIEWER_URL); '' for this host. */
  viewerUrl: string
  /** The documentation the graph menu and the Help menu open (DOCS_URL, else /docs). */
  docsUrl: string
  /** The support chat bubble (docs/onboarding.md); null on Free or when not configured. */
  supportWidget: SupportWidgetDto | null
  /** The counted limits in the current workspace, to disable an action at its limit. */
  planUsage: PlanUsageDto | null
}

export type { PlanDefinition }
export type { PlanUsageDto }
