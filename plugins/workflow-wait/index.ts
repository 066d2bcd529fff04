import { definePlugin, field } from '#sdk/plugin'

export const RESUME_MODES = ['interval', 'specificTime', 'webhook'] as const
export const WAIT_UNITS = ['seconds', 'minutes', 'hours', 'days'] as const

/**
 * Parks the run and resumes it after an interval, at a given time or when the run's
 * webhook is called. The parked run is stored, so it resumes after a restart too.
 */
export default definePlugin({
  id: 'workflow-wait',
  name: 'Wait',
  description: 'Pause the run, then go on',
  category: 'flow',
  scope: 'user',
  icon: 'timer',
  version: 1,
  serves: ['workflow'],
  replayable: true,
  waits: true,
  exposesUrl: {
    kind: 'resume',
    hint: 'POST to it to resume a waiting run: put the run id (from the runs list or the webhook trigger answer) in place of {runId}.',
    showIf: { field: 'resume', equals: 'webhook' },
  },
  options: {
    resume: field.enum({
      label: 'Resume',
      options: [
        { label: 'After a time interval', value: 'interval' },
        { label: 'At a specific time', value: 'specificTime' },
        { label: 'On a webhook call', value: 'webhook' },
      ],
      defaultValue: 'interval',
    }),
    amount: field.number({
      label: 'Wait for',
      min: 0,
      allowVariable: true,
      defaultValue: 1,
      showIf: { field: 'resume', equals: 'interval' },
    }),
    unit: field.enum({
      label: 'Unit',
      options: WAIT_UNITS,
      defaultValue: 'minutes',
      showIf: { field: 'resume', equals: 'interval' },
    }),
    dateTime: field.string({
      label: 'Date and time',
      placeholder: '2030-01-31T09:00:00Z',
      helperText: 'An ISO date-time; without a time zone it is read as UTC',
      allowVariables: true,
      showIf: { field: 'resume', equals: 'specificTime' },
    }),
  },
})
