import { useTranslation } from 'react-i18next'

/** Three dots while the bot "types"; still dots when the visitor asked for less motion. */
export function TypingBubble() {
  const { t } = useTranslation()
  return (
    <div
      role="status"
      aria-label={t('viewer.typing')}
      className="fc-host-bubble fc-typing flex h-10 w-16 items-center justify-center gap-1"
    >
      {[0, 150, 300].map((delay) => (
        <span
          key={delay}
          className="size-1.5 rounded-full bg-current opacity-60 motion-safe:animate-bounce"
          style={{ animationDelay: `${delay}ms` }}
        />
      ))}
    </div>
  )
}
