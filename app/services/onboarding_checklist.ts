import db from '@adonisjs/lucid/services/db'
import { countUsage } from '#services/plan_limits'
import type Workspace from '#models/workspace'
import {
  CHECKLIST_ITEMS,
  type ChecklistItemId,
  type OnboardingChecklistDto,
} from '#shared/onboarding'

const HREFS: Record<ChecklistItemId, string> = {
  createBot: '/bots',
  publishBot: '/bots',
  createWorkflow: '/workflows',
  activateWorkflow: '/workflows',
  createKnowledgeStore: '/vectors',
  inviteMember: '/settings/workspace/member',
}

async function knowledgeStores(workspaceId: string) {
  const rows = await db
    .from('knowledge_stores')
    .where('workspace_id', workspaceId)
    .count('* as total')
  return Number(rows[0]?.total ?? 0)
}

/**
 * The checklist of a workspace, read from its data: each step is done when what it asks
 * for exists (archived bots and workflows do not count, as for the plan limits).
 */
export async function onboardingChecklist(workspace: Workspace): Promise<OnboardingChecklistDto> {
  const [bots, published, workflows, active, stores, people] = await Promise.all([
    countUsage('botCreation', workspace.id),
    countUsage('botPublish', workspace.id),
    countUsage('workflowCreation', workspace.id),
    countUsage('workflowActivation', workspace.id),
    knowledgeStores(workspace.id),
    // members and pending invitations: the owner alone counts 1
    countUsage('multipleUser', workspace.id),
  ])
  const done: Record<ChecklistItemId, boolean> = {
    createBot: bots > 0,
    publishBot: published > 0,
    createWorkflow: workflows > 0,
    activateWorkflow: active > 0,
    createKnowledgeStore: stores > 0,
    inviteMember: people > 1,
  }
  const items = CHECKLIST_ITEMS.map((id) => ({ id, done: done[id], href: HREFS[id] }))
  return { items, completed: items.filter((i) => i.done).length, total: items.length }
}
