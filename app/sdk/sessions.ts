/** `#sdk/sessions`: the SDK's `@flowcraft/sdk/sessions`, sessions a service calls back. Server only. */
export * from '../../packages/sdk/src/sessions.js'
