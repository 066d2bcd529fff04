/** The workflow node's runner types live in the SDK package (packages/sdk). */
export type * from '../../../packages/sdk/src/workflow.js'
