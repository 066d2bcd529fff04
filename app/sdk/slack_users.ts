/** `#sdk/slack_users`: the SDK's `@flowcraft/sdk/slack_users`, the operator's bound. Server only. */
export * from '../../packages/sdk/src/slack_users.js'
