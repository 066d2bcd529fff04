/** `#sdk/telegram`: the SDK's `@flowcraft/sdk/telegram`, the Telegram Bot API. */
export * from '../../packages/sdk/src/telegram.js'
