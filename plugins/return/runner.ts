import type { Runner } from '#sdk/plugin'
import type plugin from './index.js'

export const run: Runner<typeof plugin> = () => ({ returnFromJump: true })
