import type { Runner } from '../../app/plugins/define_plugin.js'
import type plugin from './index.js'

export const run: Runner<typeof plugin> = () => ({ returnFromJump: true })
