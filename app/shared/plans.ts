/**
 * Plan names, limits and feature flags, shared by the server and the browser.
 * -1 means unlimited.
 */
export const PLAN_NAMES = ['FREE', 'BASIC', 'STANDARD', 'ENTERPRIZE', 'UNLIMITED'] as const
export type PlanName = (typeof PLAN_NAMES)[number]

export const PLAN_LABELS: Record<PlanName, string> = {
  FREE: 'Free',
  BASIC: 'Basic',
  STANDARD: 'Standard',
  ENTERPRIZE: 'Enterprise',
  UNLIMITED: 'Unlimited',
}

export interface PlanLimits {
  vectorLimit: number
  userCopilotLimit: number
  workflowCreation: number
  workflowActivation: number
  botCreation: number
  botPublish: number
  multipleUser: number
  multipleWorkspace: number
  /** chats per month */
  conversations: number
  aiCalls: number
}

export interface PlanFeatures {
  brandingRemoval: boolean
  workspaceWithFolder: boolean
  userWiseFolderShare: boolean
  realTimeDataUpdate: boolean
  customIntegration: boolean
  flowBuildingService: boolean
  hipaaGdprCompliance: boolean
  liveChatComponent: boolean
  fileUpload: boolean
  customDomain: boolean
  inDepthAnalytics: boolean
  /** Bots on a WhatsApp number (docs/channels.md); Pro and up. */
  whatsApp: boolean
}

export interface PlanDefinition {
  name: PlanName
  label: string
  /** monthly price in cents */
  priceMonthly: number
  duration: string
  limits: PlanLimits
  features: PlanFeatures
}

export const UNLIMITED = -1

/**
 * Whether a plan has the feature a plugin needs (`planFeature`, a name the SDK types as a
 * string; the registry refuses names that are not keys of PlanFeatures). None needed: true.
 */
export function hasPlanFeature(features: PlanFeatures, feature: string | undefined): boolean {
  return !feature || Boolean(features[feature as keyof PlanFeatures])
}

const noFeatures: PlanFeatures = {
  brandingRemoval: false,
  workspaceWithFolder: false,
  userWiseFolderShare: false,
  realTimeDataUpdate: false,
  customIntegration: false,
  flowBuildingService: false,
  hipaaGdprCompliance: false,
  liveChatComponent: false,
  fileUpload: false,
  customDomain: false,
  inDepthAnalytics: false,
  whatsApp: false,
}

/**
 * FREE carries the limits a workspace has when nothing else is set. The others rise
 * step by step; their values are our documented choice
 * (also listed in the README).
 */
export const DEFAULT_PLANS: PlanDefinition[] = [
  {
    name: 'FREE',
    label: 'Free',
    priceMonthly: 0,
    duration: '2 years',
    limits: {
      vectorLimit: 0,
      userCopilotLimit: 100,
      workflowCreation: 1,
      workflowActivation: 1,
      botCreation: 1,
      botPublish: 1,
      multipleUser: 2,
      multipleWorkspace: 1,
      conversations: 200,
      aiCalls: 100,
    },
    features: { ...noFeatures },
  },
  {
    name: 'BASIC',
    label: 'Basic',
    priceMonthly: 3900,
    duration: '1 month',
    limits: {
      vectorLimit: 2,
      userCopilotLimit: 500,
      workflowCreation: 10,
      workflowActivation: 5,
      botCreation: 10,
      botPublish: 5,
      multipleUser: 2,
      multipleWorkspace: 2,
      conversations: 2000,
      aiCalls: 1000,
    },
    features: { ...noFeatures, brandingRemoval: true, workspaceWithFolder: true, fileUpload: true },
  },
  {
    name: 'STANDARD',
    label: 'Standard',
    priceMonthly: 8900,
    duration: '1 month',
    limits: {
      vectorLimit: 10,
      userCopilotLimit: 2000,
      workflowCreation: 50,
      workflowActivation: 25,
      botCreation: 50,
      botPublish: 25,
      multipleUser: 5,
      multipleWorkspace: 5,
      conversations: 10000,
      aiCalls: 5000,
    },
    features: {
      ...noFeatures,
      brandingRemoval: true,
      workspaceWithFolder: true,
      userWiseFolderShare: true,
      realTimeDataUpdate: true,
      fileUpload: true,
      customDomain: true,
      inDepthAnalytics: true,
      liveChatComponent: true,
      whatsApp: true,
    },
  },
  {
    name: 'ENTERPRIZE',
    label: 'Enterprise',
    priceMonthly: 29900,
    duration: '1 month',
    limits: {
      vectorLimit: 50,
      userCopilotLimit: 10000,
      workflowCreation: 500,
      workflowActivation: 250,
      botCreation: 500,
      botPublish: 250,
      multipleUser: 25,
      multipleWorkspace: 20,
      conversations: 100000,
      aiCalls: 50000,
    },
    features: {
      brandingRemoval: true,
      workspaceWithFolder: true,
      userWiseFolderShare: true,
      realTimeDataUpdate: true,
      customIntegration: true,
      flowBuildingService: true,
      hipaaGdprCompliance: true,
      liveChatComponent: true,
      fileUpload: true,
      customDomain: true,
      inDepthAnalytics: true,
      whatsApp: true,
    },
  },
  {
    name: 'UNLIMITED',
    label: 'Unlimited',
    priceMonthly: 0,
    duration: '100 years',
    limits: {
      vectorLimit: UNLIMITED,
      userCopilotLimit: UNLIMITED,
      workflowCreation: UNLIMITED,
      workflowActivation: UNLIMITED,
      botCreation: UNLIMITED,
      botPublish: UNLIMITED,
      multipleUser: UNLIMITED,
      multipleWorkspace: UNLIMITED,
      conversations: UNLIMITED,
      aiCalls: UNLIMITED,
    },
    features: {
      brandingRemoval: true,
      workspaceWithFolder: true,
      userWiseFolderShare: true,
      realTimeDataUpdate: true,
      customIntegration: true,
      flowBuildingService: true,
      hipaaGdprCompliance: true,
      liveChatComponent: true,
      fileUpload: true,
      customDomain: true,
      inDepthAnalytics: true,
      whatsApp: true,
    },
  },
]

/** Parses durations such as '2 years', '1 month', '30 days' into calendar units. */
export function parseDuration(duration: string): {
  years?: number
  months?: number
  days?: number
} {
  const m = /^(\d+)\s*(year|month|day)s?$/i.exec(duration.trim())
  if (!m) return { years: 1 }
  const n = Number(m[1])
  const unit = m[2].toLowerCase()
  return unit === 'year' ? { years: n } : unit === 'month' ? { months: n } : { days: n }
}
