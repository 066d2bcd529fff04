import { definePlugin, field, output } from '#sdk/plugin'

export const SCHEDULE_MODES = ['minutes', 'hourly', 'daily', 'weekly', 'monthly'] as const

/**
 * Starts a run on a schedule, in UTC (bounds: minutes interval 1 to 59, hour 0 to 23,
 * dayOfWeek 0 to 6, dayOfMonth 1 to 31; default every minute). schedule.ts turns the
 * options into the next tick and into a cron pattern for the queue.
 */
export default definePlugin({
  id: 'schedule-trigger',
  name: 'Schedule trigger',
  fullName: 'Schedule trigger (cron)',
  tags: ['cron', 'timer', 'recurring', 'schedule'],
  description: 'Start the workflow at regular times',
  category: 'trigger',
  scope: 'user',
  icon: 'calendar-clock',
  version: 1,
  serves: ['workflow'],
  importsFrom: { n8n: ['n8n-nodes-base.scheduleTrigger', 'n8n-nodes-base.cron'] },
  replayable: true,
  // runner.ts: when the tick was due, and the schedule as normalised.
  outputSchema: output.object({
    timestamp: output.string(),
    schedule: output.object({
      mode: output.string(),
      minutesInterval: output.number(),
      hour: output.number(),
      minute: output.number(),
      dayOfWeek: output.number(),
      dayOfMonth: output.number(),
    }),
  }),
  options: {
    mode: field.enum({
      label: 'Run',
      options: [
        { label: 'Every few minutes', value: 'minutes' },
        { label: 'Every hour', value: 'hourly' },
        { label: 'Every day', value: 'daily' },
        { label: 'Every week', value: 'weekly' },
        { label: 'Every month', value: 'monthly' },
      ],
      defaultValue: 'minutes',
    }),
    minutesInterval: field.number({
      label: 'Every how many minutes',
      min: 1,
      max: 59,
      step: 1,
      defaultValue: 1,
      showIf: { field: 'mode', equals: 'minutes' },
    }),
    dayOfWeek: field.number({
      label: 'Day of the week (0 is Sunday)',
      min: 0,
      max: 6,
      step: 1,
      defaultValue: 1,
      showIf: { field: 'mode', equals: 'weekly' },
    }),
    dayOfMonth: field.number({
      label: 'Day of the month',
      helperText: 'Months without this day are skipped',
      min: 1,
      max: 31,
      step: 1,
      defaultValue: 1,
      showIf: { field: 'mode', equals: 'monthly' },
    }),
    hour: field.number({
      label: 'Hour (UTC)',
      min: 0,
      max: 23,
      step: 1,
      defaultValue: 0,
      showIf: { field: 'mode', in: ['daily', 'weekly', 'monthly'] },
    }),
    minute: field.number({
      label: 'Minute',
      min: 0,
      max: 59,
      step: 1,
      defaultValue: 0,
      showIf: { field: 'mode', notEquals: 'minutes' },
    }),
  },
})
