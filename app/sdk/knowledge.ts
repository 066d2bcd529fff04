/** `#sdk/knowledge`: the SDK's `@flowcraft/sdk/knowledge`, the workspace's stores. Server only. */
export * from '../../packages/sdk/src/knowledge.js'
