import { definePlugin, field } from '#sdk/plugin'

export const RESUME_MODES = ['interval', 'specificTime', 'webhook'] as const
export const WAIT_UNITS = ['seconds', 'minutes', 'hours', 'days'] as const

const BOT: ['bot'] = ['bot']
const WORKFLOW: ['workflow'] = ['workflow']

/**
 * Wait before going on. A bot waits a number of seconds before the next bubble, optionally
 * pausing the flow until the visitor comes back. A workflow parks the run and resumes it
 * after an interval, at a given time or when the run's webhook is called; the parked run is
 * stored, so it resumes after a restart too. The two keep their own settings.
 */
export default definePlugin({
  id: 'Wait',
  name: 'Wait',
  fullName: 'Wait (pause)',
  tags: ['delay', 'pause', 'sleep', 'timer'],
  description: 'Wait before going on',
  category: 'logic',
  categories: { workflow: 'flow' },
  scope: 'user',
  icon: 'timer',
  version: 1,
  serves: ['bot', 'workflow'],
  importsFrom: { n8n: ['n8n-nodes-base.wait'] },
  // Workflows saved before the bot block and the workflow node became one store this id.
  aliases: ['workflow-wait'],
  replayable: true,
  waits: true,
  exposesUrl: {
    kind: 'resume',
    hint: 'POST to it to resume a waiting run: put the run id (from the runs list or the webhook trigger answer) in place of {runId}.',
    showIf: { field: 'resume', equals: 'webhook' },
  },
  options: {
    secondsToWaitFor: field.number({
      label: 'Seconds to wait for',
      min: 0,
      allowVariables: true,
      surfaces: BOT,
    }),
    shouldPause: field.boolean({
      label: 'Pause the flow',
      helperText: 'The flow waits for the visitor to come back instead of going on after the delay',
      defaultValue: false,
      surfaces: BOT,
    }),
    resume: field.enum({
      label: 'Resume',
      surfaces: WORKFLOW,
      options: [
        { label: 'After a time interval', value: 'interval' },
        { label: 'At a specific time', value: 'specificTime' },
        { label: 'On a webhook call', value: 'webhook' },
      ],
      defaultValue: 'interval',
    }),
    amount: field.number({
      label: 'Wait for',
      surfaces: WORKFLOW,
      min: 0,
      allowVariables: true,
      defaultValue: 1,
      showIf: { field: 'resume', equals: 'interval' },
    }),
    unit: field.enum({
      label: 'Unit',
      surfaces: WORKFLOW,
      options: WAIT_UNITS,
      defaultValue: 'minutes',
      showIf: { field: 'resume', equals: 'interval' },
    }),
    dateTime: field.string({
      label: 'Date and time',
      surfaces: WORKFLOW,
      placeholder: '2030-01-31T09:00:00Z',
      helperText: 'An ISO date-time; without a time zone it is read as UTC',
      allowVariables: true,
      showIf: { field: 'resume', equals: 'specificTime' },
    }),
  },
})
