import {
  AtSignIcon,
  AudioLinesIcon,
  CalendarIcon,
  CodeXmlIcon,
  CornerDownRightIcon,
  Undo2Icon,
  CreditCardIcon,
  ExternalLinkIcon,
  FilmIcon,
  GlobeIcon,
  HashIcon,
  ImageIcon,
  ImagesIcon,
  LinkIcon,
  MapPinIcon,
  MessageSquareIcon,
  PaperclipIcon,
  PenLineIcon,
  PhoneIcon,
  PuzzleIcon,
  ShuffleIcon,
  SparklesIcon,
  SplitIcon,
  SquareCheckIcon,
  SquareCodeIcon,
  StarIcon,
  TextCursorInputIcon,
  TimerIcon,
  WebhookIcon,
  WorkflowIcon,
  type LucideIcon,
} from 'lucide-react'
import { DynamicIcon, iconNames, type IconName } from 'lucide-react/dynamic'
import { clientPlugin, pluginFilesOf, pluginSlugOf } from '~/lib/plugin_registry'

/*
 * A plugin shows either a lucide icon named in its manifest or its own
 * plugins/<slug>/icon.svg, which needs no change outside the plugin folder. The icons below
 * are in the bundle; any other lucide name is loaded on first use (importing the whole set
 * would add 750 kB to the editor). The registry refuses a name lucide does not have.
 */
const LUCIDE: Record<string, LucideIcon> = {
  'at-sign': AtSignIcon,
  'audio-lines': AudioLinesIcon,
  'calendar': CalendarIcon,
  'code-xml': CodeXmlIcon,
  'corner-down-right': CornerDownRightIcon,
  'undo-2': Undo2Icon,
  'credit-card': CreditCardIcon,
  'external-link': ExternalLinkIcon,
  'film': FilmIcon,
  'globe': GlobeIcon,
  'hash': HashIcon,
  'image': ImageIcon,
  'images': ImagesIcon,
  'link': LinkIcon,
  'map-pin': MapPinIcon,
  'message-square': MessageSquareIcon,
  'paperclip': PaperclipIcon,
  'pen-line': PenLineIcon,
  'phone': PhoneIcon,
  'shuffle': ShuffleIcon,
  'sparkles': SparklesIcon,
  'split': SplitIcon,
  'square-check': SquareCheckIcon,
  'square-code': SquareCodeIcon,
  'star': StarIcon,
  'text-cursor-input': TextCursorInputIcon,
  'timer': TimerIcon,
  'webhook': WebhookIcon,
  'workflow': WorkflowIcon,
}

const LUCIDE_NAMES = new Set<string>(iconNames)

/** The lucide icon a manifest names, or a generic one. */
export function lucideIconOf(name: string | null | undefined): LucideIcon {
  return (name && LUCIDE[name]) || PuzzleIcon
}

/** A plugin's icon: its icon.svg when it ships one, else the lucide icon its manifest names. */
export function PluginIcon({
  id,
  icon,
  className,
}: {
  id: string
  icon?: string | null
  className?: string
}) {
  const slug = pluginSlugOf(id)
  const svg = slug ? pluginFilesOf(slug)?.icon : undefined
  if (svg) return <img src={svg} alt="" aria-hidden className={className} />
  const name = clientPlugin(id)?.icon ?? icon
  if (name && !LUCIDE[name] && LUCIDE_NAMES.has(name)) {
    return (
      <DynamicIcon
        name={name as IconName}
        aria-hidden
        className={className}
        fallback={() => <PuzzleIcon aria-hidden className={className} />}
      />
    )
  }
  const Icon = lucideIconOf(name)
  return <Icon aria-hidden className={className} />
}
