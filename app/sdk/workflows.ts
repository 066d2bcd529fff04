/** `#sdk/workflows`: the SDK's `@flowcraft/sdk/workflows`, calling a workflow. Server only. */
export * from '../../packages/sdk/src/workflows.js'
