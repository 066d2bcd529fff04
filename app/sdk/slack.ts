/** `#sdk/slack`: the SDK's `@flowcraft/sdk/slack`, Slack's Web API. Browser-safe constants. */
export * from '../../packages/sdk/src/slack.js'
