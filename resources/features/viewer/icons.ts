/*
 * The chat's icons, imported one file each instead of through lucide-react's index: the
 * visitor surface's chunks are the modules the chat imports (vite.config.ts,
 * visitorChunks), and the index would bring every icon the dashboard uses along.
 * Lazy chat inputs (plugins' viewer.tsx) may import lucide-react as usual.
 */
export { default as Ban } from 'lucide-react/dist/esm/icons/ban.js'
export { default as Bot } from 'lucide-react/dist/esm/icons/bot.js'
export { default as CircleAlert } from 'lucide-react/dist/esm/icons/circle-alert.js'
export { default as Gauge } from 'lucide-react/dist/esm/icons/gauge.js'
export { default as Loader2 } from 'lucide-react/dist/esm/icons/loader-circle.js'
export { default as RotateCw } from 'lucide-react/dist/esm/icons/rotate-cw.js'
export { default as SearchX } from 'lucide-react/dist/esm/icons/search-x.js'
export { default as SendHorizontal } from 'lucide-react/dist/esm/icons/send-horizontal.js'
export { default as User } from 'lucide-react/dist/esm/icons/user.js'
