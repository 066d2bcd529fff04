/**
 * The text bubble's rich text conversions are the SDK's (`@flowcraft/sdk/chat`), so the engine,
 * the browser and the plugins of bubbles convert alike.
 */
export * from '../../../packages/sdk/src/chat_rich_text.js'
