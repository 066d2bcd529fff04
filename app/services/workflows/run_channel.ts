import type User from '#models/user'
import Workflow from '#models/workflow'
import { bouncerFor } from '#policies/bouncer_for'
import WorkflowPolicy from '#policies/workflow_policy'
import { onAnyRunEvent, type RunEvent } from './run_events.js'

/**
 * The server-sent events of runs: one transmit channel per workflow, so the editor shows
 * every run of its workflow live, however it was triggered (Run button, webhook, schedule).
 * Only members of the workflow's workspace may listen (start/transmit.ts authorises).
 */

export const RUN_CHANNEL_PATTERN = 'workflows/:id/runs'

export function runChannel(workflowId: string) {
  return `workflows/${workflowId}/runs`
}

/** What the browser gets of an event: statuses only; outputs are read from the run's record. */
export interface RunChannelMessage {
  [key: string]: string | null
  runId: string
  nodeId: string | null
  status: string
  error: string | null
}

export function channelMessage(event: RunEvent): RunChannelMessage {
  return {
    runId: event.runId,
    nodeId: event.nodeId,
    status: event.status,
    error: event.error ?? null,
  }
}

/** Channel authorisation: the workflow's workspace members (read mode is enough). */
export async function mayListenToRuns(user: User | undefined, workflowId: string) {
  if (!user) return false
  const workflow = await Workflow.find(workflowId)
  return workflow !== null && (await bouncerFor(user).with(WorkflowPolicy).allows('view', workflow))
}

interface LocalBroadcaster {
  broadcastExcept(channel: string, payload: RunChannelMessage, senderUid: string[]): void
}

/**
 * Sends every run event this process hears to the streams this process holds. Local only
 * (broadcastExcept with nobody excepted): in scaled mode each web process already hears
 * every run's events through the run-event relay, so a transport broadcast would repeat them.
 */
export function bridgeRunEventsTo(transmit: LocalBroadcaster) {
  return onAnyRunEvent((event) => {
    transmit.broadcastExcept(runChannel(event.workflowId), channelMessage(event), [])
  })
}
