import { definePlugin, field } from '#sdk/plugin'

const key = () => field.string({ label: 'Key', allowVariables: true, required: true })
const saveIn = (label: string) => field.variable({ label, writes: true })

/**
 * Redis as a workflow node: read and write keys (with an expiry), count, use lists as queues
 * and publish to a channel. One connection per credential, shared by every run.
 */
export default definePlugin({
  id: 'redis',
  name: 'Redis',
  fullName: 'Redis key-value store',
  tags: ['database', 'cache', 'key-value', 'memory'],
  description: 'Keys, counters, lists and channels of a Redis server',
  category: 'data',
  scope: 'workspace',
  icon: 'database-zap',
  version: 1,
  docsUrl: 'https://redis.io/docs/latest/commands/',
  serves: ['workflow'],
  credentials: {
    url: field.string({
      label: 'Connection URL',
      secret: true,
      required: true,
      placeholder: 'redis://user:password@host:6379/0',
      helperText: 'rediss:// connects over TLS. The number after the host is the database.',
    }),
  },
  options: {
    credentialsId: field.credentials({ label: 'Server', credentialType: 'redis', required: true }),
  },
  actions: {
    'Get': {
      label: 'Get',
      options: { key: key(), saveInVariableId: saveIn('Save the value in') },
    },
    'Set': {
      label: 'Set',
      options: {
        key: key(),
        value: field.string({ label: 'Value', allowVariables: true, multiline: true }),
        ttlSeconds: field.number({
          label: 'Expire after (seconds)',
          min: 1,
          allowVariables: true,
          helperText: 'Empty keeps the key until it is deleted.',
        }),
      },
    },
    'Delete': { label: 'Delete', options: { key: key() } },
    'Increment': {
      label: 'Increment',
      options: {
        key: key(),
        by: field.number({ label: 'By', defaultValue: 1, allowVariables: true }),
        saveInVariableId: saveIn('Save the new value in'),
      },
    },
    'Push to list': {
      label: 'Push to list',
      options: {
        key: key(),
        value: field.string({ label: 'Value', allowVariables: true, multiline: true }),
        side: field.enum({ label: 'At the', options: ['End', 'Start'], defaultValue: 'End' }),
      },
    },
    'Pop from list': {
      label: 'Pop from list',
      options: {
        key: key(),
        side: field.enum({ label: 'From the', options: ['Start', 'End'], defaultValue: 'Start' }),
        saveInVariableId: saveIn('Save the value in'),
      },
    },
    'Publish': {
      label: 'Publish',
      options: {
        channel: field.string({ label: 'Channel', allowVariables: true, required: true }),
        message: field.string({ label: 'Message', allowVariables: true, multiline: true }),
      },
    },
  },
})
