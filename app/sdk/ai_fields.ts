/** `#sdk/ai_fields`: the option blocks AI plugins share. Browser-safe, like `#sdk/plugin`. */
export * from '../../packages/sdk/src/ai_fields.js'
