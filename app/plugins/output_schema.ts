/** In the SDK package (packages/sdk): the editors read plugins' output schemas with it. */
export * from '../../packages/sdk/src/output_schema.js'
