import { definePlugin, field } from '#sdk/plugin'

/** Waits a number of seconds before the next bubble, optionally pausing the flow. */
export default definePlugin({
  id: 'Wait',
  name: 'Wait',
  description: 'Wait before going on',
  category: 'logic',
  scope: 'user',
  icon: 'timer',
  version: 1,
  serves: ['bot'],
  options: {
    secondsToWaitFor: field.number({ label: 'Seconds to wait for', min: 0, allowVariable: true }),
    shouldPause: field.boolean({
      label: 'Pause the flow',
      helperText: 'The flow waits for the visitor to come back instead of going on after the delay',
      defaultValue: false,
    }),
  },
})
